// ANY /{unknown path} – every path under /api/v1 that is not an endpoint: 404 problem with a request id
import { AppError } from "@/lib/platform/errors";
import { publicEndpoint } from "@/lib/platform/http/endpoint";
import { rateRules } from "@/lib/platform/http/rate-limit";

const unknownPath = publicEndpoint<{ path: string[] }>(rateRules.ip, async () => {
  throw new AppError("not_found");
});

export { unknownPath as GET, unknownPath as POST, unknownPath as PUT, unknownPath as PATCH, unknownPath as DELETE };
