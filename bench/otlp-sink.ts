import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * An OTLP/HTTP collector that discards what it gets: the server of the "tracing on" figure exports
 * its spans and metrics here, so the figure counts the SDK's work (recording, batching, encoding,
 * sending) and none of a real collector's. It counts the exports it got, so a run whose server
 * exported nothing is not taken for a traced one.
 */
export async function startOtlpSink(): Promise<{ url: string; exports: () => { traces: number; metrics: number }; stop(): Promise<void> }> {
  const counts = { traces: 0, metrics: 0 };
  const server = createServer((req, res) => {
    req.on("data", () => undefined);
    req.on("end", () => {
      if (req.url === "/v1/traces") counts.traces += 1;
      if (req.url === "/v1/metrics") counts.metrics += 1;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports: () => ({ ...counts }),
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
