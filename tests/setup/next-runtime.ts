import { AsyncLocalStorage } from "node:async_hooks";

// What `next start` does before it loads any of its modules (next/dist/server/node-environment-baseline):
// without it, Next's request storage is a stand-in that throws when used, and so does the console once
// a module of Next's server has wrapped its methods in that storage.
(globalThis as typeof globalThis & { AsyncLocalStorage?: typeof AsyncLocalStorage }).AsyncLocalStorage ??= AsyncLocalStorage;
