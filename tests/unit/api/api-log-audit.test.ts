import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateKey } from "@/lib/domain/keys/format";
import { rowsHoldingSecrets } from "@/tests/support/api-log-audit";

/** The audit every test run ends with (tests/setup): it must find a secret wherever a row holds it. */
describe("the API log's secret audit", () => {
  const key = generateKey("sandbox").key;
  const secret = key.slice(key.indexOf("|") + "|svc_test_".length);
  const other = generateKey("production").key;

  it("finds a key's secret anywhere in a row, with or without its prefix, and our key format even of a key it was not given", () => {
    const rows = [
      { requestId: "clean", text: `(1,req_1,key_1,acct_1,GET,/listings,,200,3,10.0.0.1,"{""title"": ""x""}",,"2026-11-26")` },
      { requestId: "whole", text: `(2,req_2,,,POST,/x,,401,1,,"{""key"": ""${key}""}",,)` },
      { requestId: "bare", text: `(3,req_3,,,GET,/x,q=${secret},200,1,,,,)` },
      { requestId: "inside", text: `(4,req_4,,,GET,/x,,200,1,,"{""a"": ""zz${secret}zz""}",,)` },
      { requestId: "unknown-key", text: `(5,req_5,,,GET,/x,,200,1,,"{""b"": ""${other}""}",,)` },
      { requestId: "prefix-only", text: `(6,req_6,,,GET,/x,,200,1,,"{""c"": ""svc_live_A""}",,)` },
      { requestId: "almost", text: `(7,req_7,,,GET,/x,,200,1,,"{""d"": ""${secret.slice(1)}""}",,)` },
    ];
    expect(rowsHoldingSecrets(rows, [key])).toEqual(["whole", "bare", "inside", "unknown-key", "prefix-only"]);
  });

  it("reads a megabyte of the secrets' alphabet against thousands of keys: nothing found where none is, the one there where it is", () => {
    const keys = Array.from({ length: 3000 }, () => generateKey("sandbox").key);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const noise = Array.from({ length: 1_000_000 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join("");
    expect(rowsHoldingSecrets([{ requestId: "noise", text: noise }], keys)).toEqual([]);
    const hidden = keys[1234].slice(keys[1234].indexOf("|") + "|svc_test_".length);
    const text = `${noise.slice(0, 700_001)}${hidden}${noise.slice(700_001)}`;
    expect(rowsHoldingSecrets([{ requestId: "hidden", text }], keys)).toEqual(["hidden"]);
  });

  it("finds a secret at any place of any text of the secrets' alphabet or not", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), (before, after) => {
        expect(rowsHoldingSecrets([{ requestId: "r", text: `${before}${secret}${after}` }], [key])).toEqual(["r"]);
      }),
      { numRuns: 500 },
    );
  });
});
