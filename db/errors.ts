/** The PostgreSQL error behind a failed query, whichever driver raised it and however drizzle wrapped it. */
export function postgresError(error: unknown): { code: string; constraint?: string } | undefined {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint_name, constraint } = e as { code?: unknown; constraint_name?: string; constraint?: string };
    // SQLSTATE codes are five characters; Node's own errors (ECONNREFUSED…) are not.
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint: constraint_name ?? constraint };
  }
  return undefined;
}

export const sqlState = { uniqueViolation: "23505", lockNotAvailable: "55P03", deadlockDetected: "40P01" } as const;

/**
 * Errors that mean "the database cannot be reached right now", not "this query is wrong": the
 * socket failed (Node's codes), postgres.js gave up on the connection (its own codes), or the
 * server closed the session (SQLSTATE class 08 connection exception; 57P01 admin_shutdown, also
 * what `pg_terminate_backend` sends; 57P02 crash_shutdown; 57P03 cannot_connect_now while starting
 * or stopping; 53300 too_many_connections), or refused a new session: the database or role named
 * does not exist or may not connect (3D000, 28000, 28P01), or the database does not accept
 * connections now (55000, `ALTER DATABASE … ALLOW_CONNECTIONS false`, also while it is being
 * dropped or renamed). The transaction in flight on such a connection is rolled back by the server,
 * so the caller may retry.
 */
const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
  // Node's own refusals to write on a socket the server has already closed.
  "ERR_STREAM_DESTROYED",
  "ERR_STREAM_WRITE_AFTER_END",
  "ERR_SOCKET_CLOSED",
]);
const driverCodes = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"]);
/** Why a session was refused, as the operator reads it at start (`unreachableMessage`). */
const refusals: Record<string, string> = {
  "3D000": "the database does not exist",
  "28000": "the role does not exist or may not connect",
  "28P01": "the password was refused",
  "55000": "the database does not accept connections",
};
const sessionStates = new Set(["57P01", "57P02", "57P03", "53300", ...Object.keys(refusals)]);

const unavailableCode = (code: string): boolean =>
  socketCodes.has(code) || driverCodes.has(code) || sessionStates.has(code) || /^08[0-9A-Z]{3}$/.test(code);

/**
 * The code saying the database is unreachable (`ECONNREFUSED`, `57P01`, `CONNECT_TIMEOUT`…), looked
 * for through drizzle's `cause` chain and a failed multi-address connect's `errors`; `undefined`
 * when the error is anything else.
 */
export function databaseUnavailable(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth > 8) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && unavailableCode(code)) return code;
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = databaseUnavailable(inner, depth + 1);
      if (found) return found;
    }
  }
  return databaseUnavailable(cause, depth + 1);
}

/**
 * The one line an operator reads when `DATABASE_URL` cannot be reached (start-up, CLI): the
 * variable, where it points without user password or query string, and the failure's code.
 */
export function unreachableMessage(url: string, code: string): string {
  let where = "an address that is not a valid URL";
  try {
    const parsed = new URL(url);
    where = `${parsed.protocol}//${parsed.username ? `${parsed.username}@` : ""}${parsed.host}${parsed.pathname}`;
  } catch {
    // The message must not repeat a malformed value: it may hold the password.
  }
  const reason = refusals[code] ? ` (${refusals[code]})` : "";
  return `Cannot reach the database: DATABASE_URL points to ${where}, which fails with ${code}${reason}. Check that PostgreSQL is running there and that DATABASE_URL is right.`;
}
