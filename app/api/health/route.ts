// GET /api/health – liveness for load balancers: answers without the database or the API pipeline
export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
