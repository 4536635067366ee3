import { describe, expect, it } from "vitest";
import { classifyAddress } from "@/lib/infra/net/address-ranges";
import { checkPublicUrl, systemResolver, type Resolver } from "@/lib/infra/net/public-address";
import { useEnv } from "../../support/env";

// Names the tests resolve without DNS, and `localhost` as the system does (/etc/hosts); any other name is unresolvable.
const answers: Record<string, string[]> = {
  "receiver.example": ["93.184.216.34", "2606:2800:220:1::1"],
  "one-private-answer.example": ["93.184.216.34", "10.0.0.7"],
  "loopback.example": ["127.0.0.1"],
  "mapped-loopback.example": ["::ffff:127.0.0.1"],
  "no-answers.example": [],
};
const resolve: Resolver = async (hostname) => {
  if (hostname === "localhost") return systemResolver(hostname);
  const found = answers[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return found;
};

const https = { schemes: ["https"] as ("https" | "http")[], resolve };
const check = (url: string, options = https) => checkPublicUrl(url, options);

describe("checkPublicUrl refuses", () => {
  it.each([
    ["not a URL at all", "not_a_url"],
    ["https://", "not_a_url"],
    ["ftp://receiver.example/", "scheme_not_allowed"],
    ["javascript:alert(1)", "scheme_not_allowed"],
    ["file:///etc/passwd", "scheme_not_allowed"],
    ["http://receiver.example/", "scheme_not_allowed"],
    ["https://user:secret@receiver.example/", "credentials_in_url"],
    ["https://user@receiver.example/", "credentials_in_url"],
    [`https://receiver.example/${"a".repeat(2048 - "https://receiver.example/".length + 1)}`, "too_long"],
  ])("%s: %s", async (url, reason) => {
    expect(await check(url)).toEqual({ ok: false, reason });
  });

  it.each([
    // Odd encodings of 127.0.0.1, which the URL parser normalises before the check.
    "https://2130706433/",
    "https://0x7f000001/",
    "https://127.1/",
    "https://0177.0.0.1/",
    "https://%31%32%37.0.0.1/",
    "https://127.0.0.1./",
    "https://127.255.255.254/",
    "https://[::1]/",
    "https://[0:0:0:0:0:0:0:1]/",
    "https://[::ffff:127.0.0.1]/",
    // Private, shared and local ranges.
    "https://10.0.0.1/",
    "https://172.16.0.1/",
    "https://172.31.255.255/",
    "https://192.168.1.1/",
    "https://100.64.0.1/",
    "https://100.127.255.255/",
    "https://169.254.169.254/",
    "https://0.0.0.0/",
    "https://0.1.2.3/",
    "https://255.255.255.255/",
    "https://224.0.0.1/",
    "https://239.255.255.250/",
    // Documentation, benchmarking and reserved.
    "https://192.0.2.1/",
    "https://198.51.100.1/",
    "https://203.0.113.1/",
    "https://198.18.0.1/",
    "https://198.19.255.255/",
    "https://192.0.0.8/",
    "https://240.0.0.1/",
    "https://[2001:db8::1]/",
    // IPv6 local, multicast and unspecified.
    "https://[::]/",
    "https://[fc00::1]/",
    "https://[fd12:3456::1]/",
    "https://[fe80::1]/",
    "https://[fec0::1]/",
    "https://[ff02::1]/",
    // IPv6 forms that carry a refused IPv4 address.
    "https://[::ffff:10.0.0.1]/",
    "https://[::ffff:169.254.169.254]/",
    "https://[::ffff:0:7f00:1]/",
    "https://[::127.0.0.1]/",
    "https://[::8.8.8.8]/",
    "https://[64:ff9b::10.0.0.1]/",
    "https://[64:ff9b::127.0.0.1]/",
    "https://[64:ff9b:1::8.8.8.8]/",
    "https://[2002:a00:1::1]/",
    "https://[2002:7f00:1::1]/",
    "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    // Outside the global unicast block.
    "https://[4000::1]/",
    // Names whose answers are not all public.
    "https://localhost/",
    "https://LOCALHOST:8443/",
    "https://loopback.example/",
    "https://mapped-loopback.example/",
    "https://one-private-answer.example/",
  ])("%s: private_address", async (url) => {
    expect(await check(url)).toEqual({ ok: false, reason: "private_address" });
  });

  it.each(["https://nowhere.example/", "https://no-answers.example/"])("%s: unresolvable", async (url) => {
    expect(await check(url)).toEqual({ ok: false, reason: "unresolvable" });
  });
});

describe("checkPublicUrl accepts", () => {
  it.each([
    "https://93.184.216.34/",
    "https://93.184.216.34:8443/hooks?x=1",
    "https://[2606:4700::1111]/",
    "https://[::ffff:8.8.8.8]/",
    "https://[64:ff9b::8.8.8.8]/",
    "https://[2002:808:808::1]/",
    "https://receiver.example/hooks/listings",
    "https://100.63.255.255/",
    "https://100.128.0.1/",
    "https://172.32.0.1/",
    "https://198.20.0.1/",
  ])("%s", async (url) => {
    const result = await check(url);
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.url.href).toBe(new URL(url).href);
  });

  it("http:// when the caller allows it", async () => {
    expect(await check("http://receiver.example/", { schemes: ["https", "http"], resolve })).toMatchObject({ ok: true });
  });

  it("a URL of exactly 2048 characters", async () => {
    const url = `https://receiver.example/${"a".repeat(2048 - "https://receiver.example/".length)}`;
    expect(url).toHaveLength(2048);
    expect(await check(url)).toMatchObject({ ok: true });
  });
});

describe("with UNSAFE_ALLOW_LOCAL_URLS=1", () => {
  useEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });

  it.each([
    "http://127.0.0.1:8080/hooks",
    "http://127.1/",
    "https://127.0.0.1/",
    "http://[::1]:8080/",
    "http://localhost:3000/",
    "https://loopback.example/",
    "https://receiver.example/",
  ])("accepts %s", async (url) => {
    expect(await check(url)).toMatchObject({ ok: true });
  });

  it.each([
    // Plain http is relaxed for loopback alone: a public host, named or literal, keeps https only.
    ["http://receiver.example/", "scheme_not_allowed"],
    ["http://example.com/photo.jpg", "scheme_not_allowed"],
    ["http://93.184.216.34/", "scheme_not_allowed"],
    ["http://[2606:2800:220:1::1]/", "scheme_not_allowed"],
    // A name other than localhost is not taken on trust, even when it resolves to loopback.
    ["http://loopback.example/", "scheme_not_allowed"],
  ])("still refuses plain http to %s: %s", async (url, reason) => {
    expect(await check(url)).toEqual({ ok: false, reason });
  });

  it.each([
    "http://10.0.0.1/",
    "http://192.168.1.1/",
    "http://169.254.169.254/",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "https://one-private-answer.example/",
  ])("still refuses %s", async (url) => {
    expect(await check(url)).toEqual({ ok: false, reason: "private_address" });
  });

  it.each(["ftp://127.0.0.1/", "file:///etc/passwd"])("still refuses the scheme of %s", async (url) => {
    expect(await check(url)).toEqual({ ok: false, reason: "scheme_not_allowed" });
  });
});

describe("with UNSAFE_ALLOW_LOCAL_URLS=1 and APP_ENV=production (start-up refuses it; this is the second line)", () => {
  useEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1", APP_ENV: "production" });

  it.each([
    ["http://127.0.0.1/", "scheme_not_allowed"],
    ["https://127.0.0.1/", "private_address"],
    ["https://[::1]/", "private_address"],
  ])("%s: %s", async (url, reason) => {
    expect(await check(url)).toEqual({ ok: false, reason });
  });
});

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["2606:4700::1111", "public"],
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["10.1.2.3", "refused"],
    ["::ffff:192.168.0.1", "refused"],
    ["2002:c0a8:1::1", "refused"],
    ["2002:808:808::1", "public"],
    ["64:ff9b::c0a8:1", "refused"],
    ["64:ff9b::808:808", "public"],
    ["not an address", "refused"],
    ["", "refused"],
  ])("%s: %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});
