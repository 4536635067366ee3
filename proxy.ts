import { NextResponse, type NextRequest } from "next/server";
import { hasMalformedPath, malformedPath } from "@/lib/platform/http/malformed-path";

/**
 * A path Next.js cannot decode ends in the framework's own text/plain 500 before any route handler
 * runs; under /api/v1 such a request gets the API's 400 problem here instead. The matcher sends only
 * paths holding a `%` through this proxy, so every other request pays nothing for it.
 */
export async function proxy(request: NextRequest): Promise<Response> {
  if (!hasMalformedPath(request.nextUrl.pathname)) return NextResponse.next();
  return malformedPath(request, { params: Promise.resolve({}) });
}

export const config = { matcher: "/api/v1/:path(.*%.*)" };
