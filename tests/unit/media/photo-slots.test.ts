import { afterEach, describe, expect, it } from "vitest";
import { inPhotoSlot } from "@/lib/domain/media/internal/limiter";
import { restoreEnv, setEnv } from "../../support/env";

afterEach(() => {
  restoreEnv();
});

describe("the photo slots", () => {
  it("work on at most PHOTO_CONCURRENCY photos at once, and on every photo in the end", async () => {
    setEnv({ PHOTO_CONCURRENCY: "2" });
    let running = 0;
    let most = 0;
    const photo = (n: number) => async () => {
      most = Math.max(most, ++running);
      await new Promise<void>((resolve) => setImmediate(resolve));
      running--;
      return n;
    };
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => inPhotoSlot(photo(n))))).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it("free the slot of a photo that fails", async () => {
    setEnv({ PHOTO_CONCURRENCY: "1" });
    await expect(inPhotoSlot(() => Promise.reject(new Error("unprocessable")))).rejects.toThrow("unprocessable");
    expect(await inPhotoSlot(async () => "next")).toBe("next");
  });
});
