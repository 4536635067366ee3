// GET /schema – the public vocabulary: no key, ETag with If-None-Match → 304, 60 requests a minute per address
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { vocabularyRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { matchesNoneMatch } from "@/lib/base/preconditions";
import { vocabularyDocument } from "@/lib/domain/vocabulary/current";

const schema = endpoint(vocabularyRoute, async ({ ctx, request }) => {
  const { document, etag } = await vocabularyDocument({ ctx });
  const headers = { ETag: etag, "Cache-Control": "public, max-age=300, must-revalidate" };
  if (matchesNoneMatch(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return json(document, { headers });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(schema);
