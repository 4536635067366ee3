import { jobRegistry } from "@/lib/platform/jobs/registry";
import { createDispatchSweep } from "./dispatch-sweep";
import { createJobFunction } from "./run-job";

/** Everything `/api/inngest` serves: one function per registered job, and the dispatch sweep. */
export const inngestFunctions = [...jobRegistry.map((job) => createJobFunction(job)), createDispatchSweep()];
