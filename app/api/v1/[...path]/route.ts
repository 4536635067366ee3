// ANY /{unknown path} – every path under /api/v1 that is not an endpoint: 404 problem with a request id
import { AppError } from "@/lib/base/errors";
import { publicEndpoint } from "@/lib/adapters/http/endpoint";
import { rateRules } from "@/lib/infra/rate-limit";

const unknownPath = publicEndpoint<{ path: string[] }>(rateRules.ip, async () => {
  throw new AppError("not_found");
});

export { unknownPath as GET, unknownPath as POST, unknownPath as PUT, unknownPath as PATCH, unknownPath as DELETE, unknownPath as OPTIONS };
