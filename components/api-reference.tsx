"use client";

import { useEffect, useMemo, useState } from "react";
import { fill } from "./fill";
import { useLocale } from "./locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";

type Labels = PageMessages["apiReference"];

interface Parameter {
  name: string;
  in: string;
  description?: string;
  required?: boolean;
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: unknown; example?: unknown }> };
  responses?: Record<string, { description?: string }>;
}
interface OpenApi {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}
interface Endpoint {
  method: string;
  path: string;
  operation: Operation;
}

/** Lists every operation of the OpenAPI document and sends real requests with the key typed in. */
export function ApiReference({ specUrl, labels }: { specUrl: string; labels: Labels }) {
  const locale = useLocale();

  const [spec, setSpec] = useState<OpenApi>();
  const [error, setError] = useState<string>();
  const [key, setKey] = useState("");

  useEffect(() => {
    fetch(specUrl)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then(setSpec)
      .catch((e: Error) => setError(e.message));
  }, [specUrl]);

  const endpoints = useMemo<Endpoint[]>(
    () =>
      spec
        ? Object.entries(spec.paths).flatMap(([path, methods]) =>
            Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
          )
        : [],
    [spec],
  );

  if (error) return <p role="alert">{fill(locale, labels.loadFailed, { error })}</p>;
  if (!spec) return <p>{labels.loading}</p>;
  return (
    <>
      <label htmlFor="api-key">{labels.apiKey}</label>
      <input
        id="api-key"
        type="password"
        autoComplete="off"
        placeholder="key_…|svc_test_…"
        value={key}
        onChange={(e) => setKey(e.target.value)}
      />
      {endpoints.map((endpoint) => (
        <EndpointCard key={`${endpoint.method} ${endpoint.path}`} endpoint={endpoint} base="/api/v1" apiKey={key} labels={labels} />
      ))}
    </>
  );
}

function EndpointCard({ endpoint, base, apiKey, labels }: { endpoint: Endpoint; base: string; apiKey: string; labels: Labels }) {
  const locale = useLocale();

  const { method, path, operation } = endpoint;
  const pathParams = (operation.parameters ?? []).filter((p) => p.in === "path");
  const [values, setValues] = useState<Record<string, string>>({});
  const [query, setQuery] = useState("");
  const contentType = Object.keys(operation.requestBody?.content ?? {})[0];
  const example = contentType ? operation.requestBody?.content[contentType].example : undefined;
  const [body, setBody] = useState(example === undefined ? "" : JSON.stringify(example, null, 2));
  const [result, setResult] = useState<string>();

  async function send() {
    let url = base + path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ""));
    if (query) url += `?${query.replace(/^\?/, "")}`;
    const headers: Record<string, string> = { accept: "application/json" };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    if (contentType && body) headers["content-type"] = contentType;
    const response = await fetch(url, { method, headers, body: contentType && body ? body : undefined });
    const text = await response.text();
    let shown = text;
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON (204, 304): shown as it came.
    }
    setResult(`${response.status} ${response.statusText}\nX-Request-Id: ${response.headers.get("x-request-id") ?? ""}\n\n${shown}`);
  }

  return (
    <details className="card">
      <summary>
        <span className="method">{method}</span> <code>{path}</code> <span className="muted">– {operation.summary}</span>
      </summary>
      {operation.description && <p className="pre-wrap">{operation.description}</p>}
      <p className="muted">{fill(locale, labels.responses, { statuses: Object.keys(operation.responses ?? {}).join(", ") })}</p>
      {pathParams.map((p) => (
        <div key={p.name}>
          <label htmlFor={`${method}${path}${p.name}`}>{p.name}</label>
          <input
            id={`${method}${path}${p.name}`}
            value={values[p.name] ?? ""}
            onChange={(e) => setValues({ ...values, [p.name]: e.target.value })}
          />
        </div>
      ))}
      <label htmlFor={`${method}${path}query`}>{labels.queryString}</label>
      <input id={`${method}${path}query`} placeholder="locale=en" value={query} onChange={(e) => setQuery(e.target.value)} />
      {contentType && (
        <>
          <label htmlFor={`${method}${path}body`}>{fill(locale, labels.body, { contentType })}</label>
          <textarea id={`${method}${path}body`} value={body} onChange={(e) => setBody(e.target.value)} />
        </>
      )}
      <p>
        <button type="button" onClick={send}>
          {fill(locale, labels.send, { method, path })}
        </button>
      </p>
      {result && <pre aria-label={labels.response}>{result}</pre>}
    </details>
  );
}
