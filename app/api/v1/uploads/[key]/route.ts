// PUT /uploads/{key} – the pre-signed upload URL: streams the file into storage
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { uploadFileRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { noContent } from "@/lib/adapters/http/respond";
import { receiveUpload } from "@/lib/domain/media/receive-upload";

const upload = endpoint(uploadFileRoute, async ({ ctx, params, query, request }) => {
  await receiveUpload({
    ctx,
    input: {
      key: params.key,
      expires: query.expires ?? null,
      signature: query.signature ?? null,
      contentType: request.headers.get("content-type"),
      contentLength: request.headers.get("content-length"),
      body: request.body,
    },
  });
  return noContent();
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(upload);
