/** Next.js calls this once per server process: the process starts here (lib/adapters/boot.ts), never during `next build`. */
export async function register(): Promise<void> {
  // The runtime test stays inline: it is what lets the bundler drop the Node-only imports from the edge build.
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    const { boot } = await import("@/lib/adapters/boot");
    const { registerInngestDispatcher } = await import("@/inngest/dispatch");
    await boot({ role: "web", registerDispatchers: registerInngestDispatcher });
  }
}
