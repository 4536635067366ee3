import { checkReadiness } from "@/lib/adapters/lifecycle/readiness";

// GET /api/health/ready – readiness for load balancers (docs/operations.md, Health and shutdown): 200 `ok` or
// `degraded` (Redis failing: requests are still served), 503 `unavailable` when a required dependency
// fails or shutdown has begun. Outside `/api/v1`: no key, no rate limit, no API log row.
export async function GET(): Promise<Response> {
  const readiness = await checkReadiness();
  return Response.json(readiness, {
    status: readiness.status === "unavailable" ? 503 : 200,
    headers: { "Cache-Control": "no-store" },
  });
}
