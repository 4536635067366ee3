import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { differenceHash, renderPhoto } from "@/lib/domain/media/internal/render";
import { rendererPid } from "@/lib/domain/media/internal/renderer";
import { jpegPhoto } from "./images";

/** A real HTTP server in this process: what "the main thread keeps serving" means here. */
async function serverOfThisProcess(): Promise<{ get(): Promise<string>; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => response.end("served"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    get: async () => (await fetch(url)).text(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("the photo renderer", () => {
  const stopped = new Set<number>();
  afterAll(() => {
    for (const pid of stopped) process.kill(pid, "SIGCONT");
  });

  it("renders in a child process of lower priority, not on this process's threads", async () => {
    const rendered = await renderPhoto(await jpegPhoto({ width: 1800, height: 1200 }));
    expect(rendered.ok && rendered.renditions.map((r) => [r.name, r.width, r.height])).toEqual([
      ["webp_1600", 1600, 1067],
      ["webp_400", 400, 267],
      ["jpeg_1600", 1600, 1067],
    ]);
    const pid = rendererPid()!;
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    // 10 steps below this process, or the lowest there is, for every thread: libvips's workers too,
    // which a render has started by now (on Linux each thread has its own nice value).
    const threads = readdirSync(`/proc/${pid}/task`).map((thread) => {
      const stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, "utf8");
      return { name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), nice: os.getPriority(Number(thread)) };
    });
    expect(threads.some((thread) => thread.name === "libvips worker")).toBe(true);
    const lower = Math.min(19, os.getPriority() + 10);
    expect(threads.filter((thread) => thread.nice !== lower)).toEqual([]);
    // Two allocator arenas (the peak's third off), unless the operator set their own.
    const environment = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    expect(environment).toContain(`MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? "2"}`);
  });

  it("keeps this process serving while a render is held, and the held render then completes", async () => {
    await renderPhoto(await jpegPhoto({ width: 200, height: 100 }));
    const pid = rendererPid()!;
    // The renderer frozen mid-work: nothing it does can answer for this process.
    process.kill(pid, "SIGSTOP");
    stopped.add(pid);
    let settled = false;
    const held = renderPhoto(await jpegPhoto({ width: 1000, height: 600 })).finally(() => (settled = true));
    const server = await serverOfThisProcess();
    try {
      expect(await server.get()).toBe("served");
      expect(await server.get()).toBe("served");
      expect(settled).toBe(false);
    } finally {
      await server.close();
      process.kill(pid, "SIGCONT");
      stopped.delete(pid);
    }
    const rendered = await held;
    expect(rendered.ok).toBe(true);
    if (!rendered.ok) return;
    const webp = await sharp(rendered.renditions[0].bytes).metadata();
    expect([webp.format, webp.width, webp.height]).toEqual(["webp", 1000, 600]);
    expect(rendered.placeholder.length).toBeGreaterThan(10);
  });

  it("fails the photos of a renderer that dies, and the next photo starts a new one", async () => {
    await renderPhoto(await jpegPhoto({ width: 200, height: 100 }));
    const pid = rendererPid()!;
    process.kill(pid, "SIGSTOP");
    const lost = renderPhoto(await jpegPhoto({ width: 800, height: 600 }));
    process.kill(pid, "SIGKILL");
    await expect(lost).rejects.toThrow(/photo renderer exited/);
    const next = await renderPhoto(await jpegPhoto({ width: 300, height: 200 }));
    expect(next.ok).toBe(true);
    expect(rendererPid()).not.toBe(pid);
  });
});

describe("the photo's perceptual hash", () => {
  /**
   * A picture (sharp renders the SVG) as JPEG or WebP at a size, `mirrored` the same flopped: light
   * rising from left to right, with blocks where it falls, so that no two neighbouring cells of the
   * hash's 9 × 8 grid are equally bright (a tie is a bit that noise decides).
   */
  const scene = async (width: number, height: number, format: "jpeg" | "webp", mirrored = false) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">
      <defs>
        <linearGradient id="rising" x1="0" x2="1"><stop offset="0" stop-color="#181818"/><stop offset="1" stop-color="#f4f4f4"/></linearGradient>
        <linearGradient id="falling" x1="1" x2="0"><stop offset="0" stop-color="#202020"/><stop offset="1" stop-color="#e8e8e8"/></linearGradient>
      </defs>
      <rect width="1200" height="800" fill="url(#rising)"/>
      <rect x="140" y="0" width="420" height="320" fill="url(#falling)"/>
      <rect x="660" y="420" width="480" height="380" fill="url(#falling)"/>
    </svg>`;
    let image = sharp(Buffer.from(svg)).resize(width, height);
    if (mirrored) image = image.flop();
    return (format === "jpeg" ? image.jpeg({ quality: 85 }) : image.webp({ quality: 60 })).toBuffer();
  };
  const bitsApart = (a: bigint, b: bigint) => [...BigInt.asUintN(64, a ^ b).toString(2)].filter((bit) => bit === "1").length;
  const hashOf = async (bytes: Buffer) => {
    const rendered = await renderPhoto(bytes);
    if (!rendered.ok) throw new Error(rendered.reason);
    return rendered.perceptualHash;
  };

  it("is a dHash: a bit per neighbours in a row, set where the left one is brighter, as a signed 64-bit integer", () => {
    const rising = Uint8Array.from({ length: 72 }, (_, index) => (index % 9) * 10);
    expect(differenceHash(rising)).toBe(0n);
    const falling = Uint8Array.from({ length: 72 }, (_, index) => 200 - (index % 9) * 10);
    expect(differenceHash(falling)).toBe(-1n);
    // Only the first row falling: the 8 highest bits, the sign among them.
    const firstRow = Uint8Array.from({ length: 72 }, (_, index) => (index < 9 ? 200 - index * 10 : 0));
    expect(differenceHash(firstRow)).toBe(BigInt.asIntN(64, 0xffn << 56n));
    // Pixels of 2 channels (grey and alpha): the grey is read.
    expect(
      differenceHash(
        Uint8Array.from({ length: 144 }, (_, index) => (index % 2 ? 255 : 200 - ((index / 2) % 9) * 10)),
        2,
      ),
    ).toBe(-1n);
  });

  it("keeps the picture's hash through resizing and recompression, and tells another picture apart", async () => {
    const large = await hashOf(await scene(1200, 800, "jpeg"));
    const small = await hashOf(await scene(600, 400, "webp"));
    const other = await hashOf(await scene(1200, 800, "jpeg", true));
    expect(bitsApart(large, small)).toBeLessThanOrEqual(10);
    expect(bitsApart(large, other)).toBeGreaterThan(20);
  });
});
