// A reason toolgate cannot start that the operator must fix (configuration, an unreachable
// database, a revoked bootstrap token): printed as one line, exit status 2, never a stack trace.
import { redactDatabaseUrl } from "./db/redact.js";
import { DatabaseCreationError } from "./db/create-database.js";
import { MigrationFailedError } from "./db/postgres-migrations.js";
import { isDatabaseUnavailable } from "./db/unavailable.js";
import { DomainError } from "./domain/errors.js";

export class StartupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StartupError";
  }
}

/** `error`, thrown while opening, migrating or bootstrapping the database, as a StartupError when it is one. */
export function asStartupError(databaseUrl: string, error: unknown): unknown {
  if (error instanceof StartupError) return error;
  if (error instanceof DomainError) return new StartupError(`cannot start: ${error.message}`, { cause: error });
  if (error instanceof DatabaseCreationError) return new StartupError(`cannot start: ${error.message}`, { cause: error });
  if (error instanceof MigrationFailedError) return new StartupError(`cannot start: ${error.message}`, { cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  const refused = typeof code === "string" && code.startsWith("28"); // invalid authorization (bad password, no such role)
  const fileProblem = databaseUrl.startsWith("file:") ? sqliteFileProblem(error) : undefined;
  if (fileProblem) return new StartupError(`cannot start: database ${databaseUrl} cannot be opened: ${fileProblem}`, { cause: error });
  if (refused || isDatabaseUnavailable(error)) {
    return new StartupError(`cannot start: database ${describeDatabase(databaseUrl)} is unavailable: ${rootCause(error)}`, { cause: error });
  }
  return error;
}

/** An SQLite file (or its folder) that cannot be created, opened or written: a path or permission to fix. */
const SQLITE_FILE_PROBLEMS = new Set([
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY",
  "SQLITE_NOTADB",
  "SQLITE_PERM",
  "EACCES",
  "EPERM",
  "EEXIST",
  "ENOTDIR",
  "EISDIR",
  "EROFS",
]);

/** The schema engine (WASM) reports SQLite's errors by message only. */
const SQLITE_FILE_MESSAGES = /^(file is not a database|unable to open database file|attempt to write a readonly database)/;

/** The first line of the error in the chain that says the file is the problem; undefined when none does. */
function sqliteFileProblem(error: unknown): string | undefined {
  for (let cause = error; typeof cause === "object" && cause !== null; cause = (cause as { cause?: unknown }).cause) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    const text = typeof message === "string" ? message : "";
    if ((typeof code === "string" && SQLITE_FILE_PROBLEMS.has(code)) || SQLITE_FILE_MESSAGES.test(text)) return text.split("\n")[0]!;
  }
  return undefined;
}

function describeDatabase(databaseUrl: string): string {
  if (databaseUrl.startsWith("file:")) return databaseUrl;
  try {
    const url = new URL(databaseUrl);
    return `"${decodeURIComponent(url.pathname.slice(1))}" on ${url.hostname}:${url.port || 5432} (${redactDatabaseUrl(databaseUrl)})`;
  } catch {
    return redactDatabaseUrl(databaseUrl);
  }
}

/** The innermost one-line message: the driver's words, not a wrapper's code frame. */
function rootCause(error: unknown): string {
  let cause: unknown = error;
  let message = String((error as Error)?.message ?? error);
  while (typeof cause === "object" && cause !== null) {
    const candidate = (cause as { originalMessage?: unknown; message?: unknown }).originalMessage ?? (cause as { message?: unknown }).message;
    if (typeof candidate === "string" && candidate.trim() !== "") message = candidate;
    const next =
      (cause as { cause?: unknown; meta?: { driverAdapterError?: unknown } }).cause ??
      (cause as { meta?: { driverAdapterError?: unknown } }).meta?.driverAdapterError;
    cause = next;
  }
  const line = message.trim().split("\n").pop()!.trim();
  return /^timeout expired$|connection timeout/.test(line) ? `no answer within the connect timeout (TOOLGATE_DB_CONNECT_TIMEOUT_MS): ${line}` : line;
}
