import { z } from "zod";
import { defineRoute } from "@/lib/adapters/http/route";

export const vocabularyRoute = defineRoute({
  method: "GET",
  path: "/schema",
  operationId: "getVocabulary",
  summary: "Vocabulary",
  description:
    "Every code list with `ro`/`en` labels, currencies with reference rates, retired codes and field metadata. 60 requests a minute per address. Supports `If-None-Match` (304).",
  tags: ["Vocabulary"],
  permission: "public",
  rateRule: "schema",
  headers: z.object({ "if-none-match": z.string().optional().meta({ description: "The `ETag` last read: 304 when unchanged." }) }),
  responses: {
    200: {
      description: "The vocabulary.",
      schema: z.record(z.string(), z.unknown()),
      headers: { ETag: { description: "Version of the vocabulary.", schema: { type: "string" } } },
    },
    304: { description: "Unchanged since `If-None-Match`." },
  },
});
