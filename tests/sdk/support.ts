import { exampleApartment } from "@/lib/domain/listings/examples";
import { createClient, type ClientOptions } from "@/sdk/src/index";
import { accountWithKey } from "../support/fixtures";
import { inProcessFetch } from "../support/in-process-fetch";

type Fetch = (request: Request) => Promise<Response>;

/**
 * A fresh account with a key, and a client of it whose requests reach the real route handlers and the
 * run's database in this process. `through` sits between the client and the server (to answer a 429
 * once, say); a copy of every request that reaches it is kept in `requests`.
 */
export async function clientOfNewAccount(
  options: { through?: (request: Request, server: Fetch) => Promise<Response> } & Partial<ClientOptions> = {},
) {
  const { key } = await accountWithKey();
  const requests: Request[] = [];
  const { through = (request, server) => server(request), ...rest } = options;
  const client = createClient({
    baseUrl: "http://localhost:3000/api/v1",
    apiKey: key,
    fetch: (request) => {
      requests.push(request.clone());
      return through(request, inProcessFetch);
    },
    ...rest,
  });
  return { client, key, requests };
}

/** A valid listing body (an apartment for sale) with its own reference. */
export const listingBody = (ref: string) => ({ ...exampleApartment, external_ref: ref });
