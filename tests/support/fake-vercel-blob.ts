import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A local fake of the Vercel Blob HTTP API, as `@vercel/blob` 2.8 calls it, for the storage's tests
 * (`VERCEL_BLOB_API_URL` = `apiUrl`): `PUT /?pathname=` (put), `GET /?url=` (head), `POST /delete`
 * (del), errors as `{ error: { code, message } }`, and the blobs themselves under `/files/`, the
 * address put and head answer in place of `<store>.public.blob.vercel-storage.com`.
 */
export interface FakeBlobObject {
  bytes: Buffer;
  contentType: string;
  cacheControlMaxAge: string | undefined;
  uploadedAt: string;
}

export interface FakeBlobRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface FakeVercelBlob {
  /** The value for `VERCEL_BLOB_API_URL`. */
  apiUrl: string;
  /** A token of the fake's store: `vercel_blob_rw_<storeId>_<secret>`. */
  token: string;
  storeId: string;
  objects: Map<string, FakeBlobObject>;
  requests: FakeBlobRequest[];
  close(): Promise<void>;
}

export async function startFakeVercelBlob(): Promise<FakeVercelBlob> {
  const storeId = "FakeStore01";
  const token = `vercel_blob_rw_${storeId}_fakeSecretOfTheTests`;
  const objects = new Map<string, FakeBlobObject>();
  const requests: FakeBlobRequest[] = [];
  let origin = "";

  const fileUrl = (pathname: string) => `${origin}/files/${pathname}`;
  const blobJson = (pathname: string, object: FakeBlobObject) => ({
    url: fileUrl(pathname),
    downloadUrl: `${fileUrl(pathname)}?download=1`,
    pathname,
    contentType: object.contentType,
    contentDisposition: `inline; filename="${pathname.split("/").pop()}"`,
    etag: `"${createHash("sha256").update(object.bytes).digest("hex").slice(0, 32)}"`,
  });
  // head and del take a blob URL (of this store) or a pathname.
  const pathnameOf = (urlOrPathname: string) => {
    if (!/^https?:\/\//.test(urlOrPathname)) return urlOrPathname;
    const url = new URL(urlOrPathname);
    return decodeURIComponent(url.pathname.replace(/^\/files\//, "/").slice(1));
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  const fail = (res: http.ServerResponse, status: number, code: string, message: string) => json(res, status, { error: { code, message } });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? "/", origin);
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });

      if (req.method === "GET" && url.pathname.startsWith("/files/")) {
        const object = objects.get(decodeURIComponent(url.pathname.slice("/files/".length)));
        if (!object) return void res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
        return void res
          .writeHead(200, {
            "content-type": object.contentType,
            "content-length": String(object.bytes.length),
            "cache-control": `public, max-age=${object.cacheControlMaxAge ?? 2592000}`,
          })
          .end(object.bytes);
      }

      if (!url.pathname.startsWith("/api/blob")) return fail(res, 404, "not_found", "no such route");
      if (req.headers.authorization !== `Bearer ${token}`) return fail(res, 403, "forbidden", "Access denied");
      if (!req.headers["x-api-version"]) return fail(res, 400, "bad_request", "x-api-version is required");
      const route = url.pathname.slice("/api/blob".length) || "/";

      if (req.method === "PUT" && route === "/") {
        const pathname = url.searchParams.get("pathname");
        if (!pathname) return fail(res, 400, "bad_request", "pathname is required");
        if (req.headers["x-vercel-blob-access"] !== "public") return fail(res, 400, "bad_request", "access must be public");
        if (req.headers["x-add-random-suffix"] !== "0")
          return fail(res, 400, "bad_request", "this fake stores blobs without a random suffix only");
        if (objects.has(pathname) && req.headers["x-allow-overwrite"] !== "1") {
          return fail(res, 400, "bad_request", `This blob already exists, use allowOverwrite: true`);
        }
        const object: FakeBlobObject = {
          bytes: body,
          contentType: String(req.headers["x-content-type"] ?? "application/octet-stream"),
          cacheControlMaxAge: req.headers["x-cache-control-max-age"] as string | undefined,
          uploadedAt: new Date().toISOString(),
        };
        objects.set(pathname, object);
        return json(res, 200, blobJson(pathname, object));
      }

      if (req.method === "GET" && route === "/" && url.searchParams.has("url")) {
        const pathname = pathnameOf(url.searchParams.get("url") ?? "");
        const object = objects.get(pathname);
        if (!object) return fail(res, 404, "not_found", "The requested blob does not exist");
        return json(res, 200, {
          ...blobJson(pathname, object),
          size: object.bytes.length,
          uploadedAt: object.uploadedAt,
          cacheControl: `public, max-age=${object.cacheControlMaxAge ?? 2592000}`,
        });
      }

      if (req.method === "POST" && route === "/delete") {
        let urls: unknown;
        try {
          urls = (JSON.parse(body.toString("utf8")) as { urls?: unknown }).urls;
        } catch {
          return fail(res, 400, "bad_request", "invalid JSON");
        }
        if (!Array.isArray(urls) || !urls.every((item) => typeof item === "string"))
          return fail(res, 400, "bad_request", "urls must be strings");
        for (const item of urls) objects.delete(pathnameOf(item));
        return json(res, 200, {});
      }

      return fail(res, 400, "bad_request", `unhandled ${req.method} ${route}`);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return {
    apiUrl: `${origin}/api/blob`,
    token,
    storeId,
    objects,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
