/** Next.js calls this once per server process: background work starts here, never during `next build`. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { prepareServer } = await import("@/lib/startup");
  await prepareServer();
  const { startJobRunner } = await import("@/lib/jobs/runner");
  startJobRunner();
}
