/** The PostgreSQL error behind a failed query, whichever driver raised it and however drizzle wrapped it. */
export function postgresError(error: unknown): { code: string; constraint?: string } | undefined {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint_name, constraint } = e as { code?: unknown; constraint_name?: string; constraint?: string };
    // SQLSTATE codes are five characters; Node's own errors (ECONNREFUSED…) are not.
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint: constraint_name ?? constraint };
  }
  return undefined;
}

export const sqlState = { uniqueViolation: "23505", lockNotAvailable: "55P03" } as const;
