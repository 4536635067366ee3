import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";
import { maxPhotoPixels } from "../limits";

/** What the renderer answers for one photo (render-process.mjs). */
export type RenderAnswer =
  | {
      ok: true;
      width: number;
      height: number;
      renditions: { name: "webp_1600" | "webp_400" | "jpeg_1600"; bytes: Uint8Array; width: number; height: number }[];
      small: { width: number; height: number; rgba: Uint8Array };
      /** 9 × 8 pixels, row by row, the first of each pixel's `channels` its grey level: for the difference hash. */
      grey: { channels: number; pixels: Uint8Array };
    }
  | { ok: false; reason: "too_many_pixels" | "unprocessable" };

interface Renderer {
  child: ChildProcess;
  ready: Promise<void>;
  waiting: Map<number, { resolve: (answer: RenderAnswer) => void; reject: (error: Error) => void }>;
}

/** Loaded by path from the working folder (the repository's, or the release bundle's, which server.js and cli.mjs work in). */
const entry = path.join(process.cwd(), "lib/domain/media/internal/render-process.mjs");

// One renderer per process, in the process registry, with the ids of the photos sent to it.
const slot = processSlot<{ renderer?: Renderer; lastId: number }>("photoRenderer");
const held = () => slot.getOrMake(() => ({ lastId: 0 }));

/**
 * Renders in the photo renderer, a child process at a lower priority started at the first photo and
 * kept while the process lives; it holds the process open only while it has photos to answer. Should
 * it die (a photo that crashes libvips), the photos in it fail with an error, which leaves them to
 * the job's next attempt, and the next photo starts a new one.
 */
export function renderInRenderer(bytes: Buffer, format: "jpeg" | "png" | "webp"): Promise<RenderAnswer> {
  const state = held();
  const renderer = (state.renderer ??= startRenderer());
  const id = ++state.lastId;
  return new Promise<RenderAnswer>((resolve, reject) => {
    renderer.waiting.set(id, { resolve, reject });
    holdOpen(renderer);
    renderer.ready.then(
      () =>
        renderer.child.send({ id, format, bytes }, (error) => {
          if (error) settle(renderer, id, { error });
        }),
      (error: Error) => settle(renderer, id, { error }),
    );
  });
}

/** The renderer's process id, once one runs (for the logs and the tests). */
export const rendererPid = (): number | undefined => slot.get()?.renderer?.child.pid;

/**
 * Ends the renderer (boot's shutdown, once the jobs have stopped): the photos still in it fail, as
 * they would if it died, and the next photo, if any, starts a new one. Resolves when it has exited.
 */
export async function stopPhotoRenderer(): Promise<void> {
  const renderer = slot.get()?.renderer;
  if (!renderer) return;
  end(renderer, new Error("photo renderer stopped"));
  const { child } = renderer;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill();
  await exited;
}

function startRenderer(): Renderer {
  // Plain Node, neither the parent's loaders (tsx, Next's) nor its flags; `spawn` with an IPC
  // channel rather than `fork`, which Next.js's bundler takes for a module to bundle and fails on.
  const child = spawn(process.execPath, [entry], {
    env: {
      // glibc's allocator gives each of libvips's threads arenas of its own, which keep freed pixels:
      // two arenas held its peak at 230 MiB instead of 335 over a batch of 12 MP photos, at the same
      // speed (docs/benchmarks.md, Photo processing). An operator's own setting is kept.
      MALLOC_ARENA_MAX: "2",
      ...process.env,
      PHOTO_MAX_PIXELS: String(maxPhotoPixels),
    },
    // Buffers go across as bytes, not as JSON arrays of numbers.
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const renderer: Renderer = { child, waiting: new Map(), ready: Promise.resolve() };
  renderer.ready = new Promise<void>((resolve, reject) => {
    child.once("exit", () => reject(new Error("photo renderer exited before it was ready")));
    child.once("error", reject);
    child.on("message", (message: { ready?: true; id?: number; result?: RenderAnswer }) => {
      if (message.ready) {
        logger.info("photo renderer started", { pid: child.pid });
        resolve();
      } else if (message.id !== undefined) settle(renderer, message.id, { answer: message.result! });
    });
  });
  // Not started at all (no `exit` follows then), or a message not sent: the same end as an exit.
  child.on("error", (error) => {
    logger.error("photo renderer failed", { error });
    end(renderer, new Error(`photo renderer failed: ${error.message}`));
    child.kill();
  });
  child.once("exit", (code, signal) => end(renderer, new Error(`photo renderer exited (${signal ?? code}) while rendering`)));
  holdOpen(renderer);
  return renderer;
}

/** Its photos fail, and the next photo starts a new renderer. */
function end(renderer: Renderer, error: Error): void {
  const state = held();
  if (state.renderer === renderer) state.renderer = undefined;
  for (const id of [...renderer.waiting.keys()]) settle(renderer, id, { error });
}

function settle(renderer: Renderer, id: number, outcome: { answer: RenderAnswer } | { error: Error }): void {
  const waiting = renderer.waiting.get(id);
  if (!waiting) return;
  renderer.waiting.delete(id);
  if ("answer" in outcome) waiting.resolve(outcome.answer);
  else waiting.reject(outcome.error);
  holdOpen(renderer);
}

/** The child and its channel keep this process running only while photos are being rendered (or the child is starting). */
function holdOpen(renderer: Renderer): void {
  const busy = renderer.waiting.size > 0;
  const { child } = renderer;
  if (busy) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}
