// Every path – the baselines' database work (bench/bare-work.ts) in one Next.js route handler: the
// most any handler served by Next.js can do per second with that work, on the same runtime.
import { handleBare } from "../../../bare-work";

async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const { status, text, headers } = await handleBare({
    method: request.method,
    url: url.pathname + url.search,
    authorization: request.headers.get("authorization") ?? undefined,
    ifMatch: request.headers.get("if-match") ?? undefined,
    text: () => request.text(),
  });
  return new Response(text, { status, headers: { ...headers, "content-type": "application/json" } });
}

export const GET = handle;
export const PATCH = handle;
