/**
 * `postinstall`: two fixes to postgres.js 3.4.9 (the latest release) for connections that
 * PostgreSQL ends while queries run (a restart, `pg_terminate_backend`); tests/faults shows both.
 *
 * 1. `nextWrite` on a closed connection: `begin()` sends its own ROLLBACK after a failed query;
 *    when the socket is already gone, that write is flushed from a `setImmediate` and
 *    `socket.write` on `null` throws where nobody can catch it, ending the whole process
 *    (upstream issues porsager/postgres#1154 and #1208). The guard fails the pending queries with
 *    `CONNECTION_CLOSED` instead, as the pull requests there do.
 * 2. State of a closed socket carried into the next one. Queries handed to the connection between
 *    a socket error (ECONNRESET) and its close stay in the pipeline, never answered, and the next
 *    socket's answers are matched to them: requests hang. And the error the server sent before
 *    closing (57P01) is kept and handed to the first query of the next session, which fails for
 *    nothing. On close, whatever is still pending now fails (with the server's error when it sent
 *    one), and the next socket starts clean.
 * 3. A session ended right after it connected: the driver's own query for the array types fails,
 *    and nothing handles that promise, so Node ends the process (an unhandled rejection). The close
 *    that follows reconnects and fetches the types again, so the failure only needs catching.
 *
 * Plain Node, no dependency, idempotent. Remove it once a release carries both fixes.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../node_modules/postgres");
const marker = "// listings-platform: scripts/patch-postgres.mjs";

const fixes = [
  {
    name: "nextWrite guard",
    from: "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n",
    to:
      "  function nextWrite(fn) {\n" +
      `    if (!socket) { ${marker}\n` +
      "      nextWriteTimer !== null && clearImmediate(nextWriteTimer)\n" +
      "      chunk = nextWriteTimer = null\n" +
      "      error(Errors.connection('CONNECTION_CLOSED', options))\n" +
      "      return false\n" +
      "    }\n" +
      "    const x = socket.write(chunk, fn)\n",
  },
  {
    name: "pending queries fail on close",
    from: "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n",
    to:
      `    ${marker}\n` +
      "    ;(query || sent.length) && error(errorResponse || Errors.connection('CONNECTION_CLOSED', options, socket))\n" +
      "    query = results = errorResponse = null\n" +
      "    result = new Result()\n",
  },
  {
    name: "array types fetch failure handled",
    from: "        return fetchArrayTypes()\n",
    to: `        return fetchArrayTypes().catch(() => {}) ${marker}\n`,
  },
];

for (const variant of ["src", "cjs/src", "cf/src"]) {
  const file = path.join(root, variant, "connection.js");
  if (!existsSync(file)) continue;
  let source = readFileSync(file, "utf8");
  for (const fix of fixes) {
    if (source.includes(fix.to)) continue;
    if (!source.includes(fix.from)) {
      console.warn(`patch-postgres: ${path.relative(process.cwd(), file)} has changed; "${fix.name}" was not applied`);
      continue;
    }
    source = source.replace(fix.from, fix.to);
  }
  writeFileSync(file, source);
}
