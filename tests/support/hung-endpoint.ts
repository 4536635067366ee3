import net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP server that accepts connections, reads what arrives and never answers: a service that is
 * up at the network level and hung above it. It counts what reaches it (connections, and the JSON
 * commands each HTTP request carries, e.g. `evalsha` or `ping` from an Upstash client) and how many of its
 * sockets are open, and the most at once, so a test can tell calls and leaked sockets apart from
 * elapsed time. `forwardTo` makes it answer from then on by piping new connections to another
 * server (the Upstash bridge); the connections it holds are closed then.
 */
export interface HungEndpoint {
  /** `http://127.0.0.1:<port>` */
  url: string;
  connections(): number;
  /** The name of each command the held connections carried, lower case, in arrival order. */
  commands(): string[];
  openSockets(): number;
  mostOpenSockets(): number;
  forwardTo(port: number): void;
  close(): Promise<void>;
}

export async function startHungEndpoint(): Promise<HungEndpoint> {
  let connections = 0;
  let mostOpen = 0;
  let forwardPort: number | undefined;
  // What each held connection sent, kept after it closes so its request still counts.
  const texts: { text: string }[] = [];
  const held = new Set<net.Socket>();
  const open = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    connections += 1;
    open.add(socket);
    mostOpen = Math.max(mostOpen, open.size);
    socket.on("close", () => open.delete(socket));
    socket.on("error", () => socket.destroy());
    if (forwardPort !== undefined) {
      const upstream = net.connect(forwardPort, "127.0.0.1");
      upstream.on("error", () => socket.destroy());
      upstream.on("close", () => socket.destroy());
      socket.pipe(upstream).pipe(socket);
      return;
    }
    const sent = { text: "" };
    texts.push(sent);
    held.add(socket);
    socket.on("close", () => held.delete(socket));
    // Reading keeps the socket flowing, so the client's close is seen here as it happens.
    socket.on("data", (chunk: Buffer) => (sent.text += chunk.toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // `POST /` carries one command, `["PING"]`; `/pipeline` (the client's automatic pipelining) an array of them.
  const commandsOf = (text: string): string[] => {
    const body = text.split("\r\n\r\n")[1];
    if (!body) return [];
    try {
      const parsed = JSON.parse(body) as unknown[];
      return (Array.isArray(parsed[0]) ? (parsed as unknown[][]) : [parsed]).map((command) => String(command[0]).toLowerCase());
    } catch {
      return [];
    }
  };

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    commands: () => texts.flatMap(({ text }) => commandsOf(text)),
    openSockets: () => open.size,
    mostOpenSockets: () => mostOpen,
    forwardTo(port) {
      forwardPort = port;
      for (const socket of held) socket.destroy();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
