import http from "node:http";
import net from "node:net";

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on a free loopback port; `handle` answers after the body has been read. */
export async function startHttpServer(handle: (request: ReceivedRequest, res: http.ServerResponse) => void): Promise<LocalServer> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(request);
      handle(request, res);
    });
  });
  return listening(server, received);
}

/** A TCP server that answers whatever `reply` writes, HTTP or not. */
export async function startRawServer(reply: (socket: net.Socket) => void): Promise<LocalServer> {
  return listening(net.createServer(reply), []);
}

/** A loopback port nothing listens on (just freed). */
export async function closedPort(): Promise<number> {
  const server = await listening(net.createServer(), []);
  await server.close();
  return server.port;
}

async function listening(server: net.Server, received: ReceivedRequest[]): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    // Servers that never answer hold their sockets open: close ends them so the test file can exit.
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
