// /api/inngest – the Inngest functions of the jobs (only when Inngest is configured)
import type { NextRequest } from "next/server";
import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { inngestFunctions } from "@/inngest/functions";
import { inngestConfigured } from "@/lib/base/config";

// On Vercel a call from Inngest runs the functions' steps (a job attempt: a listing's photos; a webhook
// attempt) and is stopped after this many seconds: fluid compute's default and the Hobby plan's
// ceiling (docs/operations.md, Deploy on Vercel). Elsewhere (next start, the release bundle) it does nothing.
export const maxDuration = 300;

type Handler = ReturnType<typeof serve>;
let handler: Handler | undefined;

// Built on first use: the SDK refuses to serve in cloud mode without a signing key, and without
// Inngest the embedded runner does the work, so the endpoint says so instead of failing.
function respond(method: "GET" | "POST" | "PUT") {
  return (request: NextRequest, context: unknown): Promise<Response> => {
    if (!inngestConfigured()) return Promise.resolve(notConfigured());
    handler ??= serve({ client: inngest, functions: inngestFunctions });
    return handler[method](request, context);
  };
}

function notConfigured(): Response {
  const problem = {
    type: "about:blank",
    title: "Inngest is not configured",
    status: 503,
    code: "inngest_not_configured",
    detail:
      "Jobs run in the embedded runner. Set INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY, or INNGEST_DEV, to serve Inngest functions here.",
  };
  return new Response(JSON.stringify(problem), { status: 503, headers: { "content-type": "application/problem+json" } });
}

export const GET = respond("GET");
export const POST = respond("POST");
export const PUT = respond("PUT");
