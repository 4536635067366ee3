import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  /** The user it authenticated as, when the server asks for credentials. */
  user: string | undefined;
  /** The message as sent, line ends as `\n`. */
  raw: string;
}

export interface LocalSmtpServer {
  /** `smtp://[user:pass@]127.0.0.1:<port>`, as `SMTP_URL` takes it. */
  url: string;
  port: number;
  /** Every message accepted, in order. */
  mails: ReceivedMail[];
  /** While true, every message is turned away (a mailbox unavailable). */
  refuse: boolean;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free local port (no TLS) keeping every message it accepts; with
 * `credentials` it requires AUTH with them (and the URL carries them), else it offers no AUTH.
 */
export async function startSmtpServer(options: { credentials?: { user: string; password: string } } = {}): Promise<LocalSmtpServer> {
  const { credentials } = options;
  // Its address is known once the server listens, before any message can arrive.
  const local: LocalSmtpServer = {
    url: "",
    port: 0,
    mails: [],
    refuse: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    disabledCommands: credentials ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    allowInsecureAuth: Boolean(credentials),
    logger: false,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.password) {
        return callback(null, { user: auth.username });
      }
      callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (local.refuse) return callback(new Error("Mailbox unavailable"));
        local.mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: session.user as string | undefined,
          raw: Buffer.concat(chunks).toString("utf8").replace(/\r\n/g, "\n"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  local.port = (server.server.address() as AddressInfo).port;
  local.url = `smtp://${credentials ? `${credentials.user}:${credentials.password}@` : ""}127.0.0.1:${local.port}`;
  return local;
}
