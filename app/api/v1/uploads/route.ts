// POST /uploads – a pre-signed URL to upload one photo file
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { createUploadRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { createUpload } from "@/lib/domain/media/create-upload";

const create = endpoint(createUploadRoute, async ({ ctx, body }) => {
  const grant = await createUpload({ ctx, input: await body() });
  return json(grant, { status: 201 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(create);
