import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, vi } from "vitest";
import * as uploadRoute from "@/app/api/v1/uploads/[key]/route";
import * as uploadsRoute from "@/app/api/v1/uploads/route";
import { resetConfig } from "@/lib/base/config";
import { blobStorage, type BlobStorage } from "@/lib/infra/storage";
import { startFakeVercelBlob, type FakeVercelBlob } from "../support/fake-vercel-blob";
import { expectDocumented } from "../support/documented";
import { call } from "../support/fixtures";
import { restoreEnv } from "../support/env";

export type StorageKind = "local" | "vercel";
export const storageKinds: StorageKind[] = ["local", "vercel"];

/**
 * Points the application's file storage at a fresh local folder, or at a local fake of the Vercel
 * Blob API, for the file (call at the top level of a `describe`).
 */
export function useStorage(kind: StorageKind): { storage: () => BlobStorage; fake: () => FakeVercelBlob | undefined } {
  let folder: string | undefined;
  let fake: FakeVercelBlob | undefined;
  beforeAll(async () => {
    if (kind === "local") {
      folder = mkdtempSync(path.join(os.tmpdir(), "media-blobs-"));
      vi.stubEnv("BLOB_DIR", folder);
      vi.stubEnv("BLOB_READ_WRITE_TOKEN", undefined);
    } else {
      fake = await startFakeVercelBlob();
      vi.stubEnv("BLOB_READ_WRITE_TOKEN", fake.token);
      vi.stubEnv("VERCEL_BLOB_API_URL", fake.apiUrl);
      vi.stubEnv("VERCEL_BLOB_RETRIES", "0");
    }
    resetConfig();
  });
  afterAll(async () => {
    restoreEnv();
    if (folder) rmSync(folder, { recursive: true, force: true });
    await fake?.close();
  });
  return { storage: () => blobStorage(), fake: () => fake };
}

export async function readBlob(storage: BlobStorage, key: string): Promise<Buffer | null> {
  const found = await storage.get(key);
  return found ? Buffer.from(await new Response(found.body).arrayBuffer()) : null;
}

export interface Grant {
  method: string;
  url: string;
  headers: Record<string, string>;
  key: string;
}

export async function requestUpload(key: string, contentLength: number): Promise<Grant> {
  const res = await call(uploadsRoute.POST, { path: "/uploads", method: "POST", key, body: { content_length: contentLength } });
  if (res.status !== 201) throw new Error(`POST /uploads answered ${res.status}: ${res.text}`);
  return res.json as Grant;
}

/** Sends bytes to an upload URL through its route handler, as a client following the grant would. */
export async function sendUpload(
  url: string,
  body: Uint8Array | ReadableStream<Uint8Array> | null,
  headers: Record<string, string>,
): Promise<{ status: number; json: Record<string, any> | undefined; headers: Headers }> {
  const parsed = new URL(url);
  const key = parsed.pathname.split("/").at(-1)!;
  const request = new Request(parsed, {
    method: "PUT",
    headers: { "Accept-Language": "en", ...headers },
    body,
    ...(body ? { duplex: "half" } : {}),
  } as RequestInit);
  const response = await uploadRoute.PUT(request, { params: Promise.resolve({ key }) });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as Record<string, any>) : undefined;
  expectDocumented(uploadRoute.PUT, response.status, json);
  return { status: response.status, json, headers: response.headers };
}

/** Uploads `bytes` with a fresh grant and answers its key. */
export async function uploaded(apiKey: string, bytes: Uint8Array): Promise<string> {
  const grant = await requestUpload(apiKey, bytes.byteLength);
  const res = await sendUpload(grant.url, bytes, { ...grant.headers, "Content-Length": String(bytes.byteLength) });
  if (res.status !== 204) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.json)}`);
  return grant.key;
}
