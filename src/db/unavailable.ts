// Recognises "the database cannot be reached or cannot answer now" in whatever shape it arrives:
// node-postgres and socket errors, PostgreSQL SQLSTATEs, Prisma's driver-adapter errors and the
// Prisma client errors that wrap them. Such failures are outages, not bugs: clients get 503
// DATABASE_UNAVAILABLE and should retry. (Retryable write conflicts are src/db/conflicts.ts's and src/domain/write-transaction.ts's job.)
import { TransactionWaitTimeout } from "./statement-transaction.js";

/** Socket-level failures (Node's errno codes). */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "EPIPE"]);

/**
 * PostgreSQL SQLSTATEs: connection exceptions (class 08), admin/crash shutdown and "cannot connect
 * now" (57P01–57P03), statement timeout (57014), missing database (3D000), too many connections (53300).
 */
const POSTGRES_CODES = new Set(["57P01", "57P02", "57P03", "57014", "3D000", "53300"]);

/** Prisma error codes for the same: can't reach, timed out, no database, pool timeout, connection closed. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1003", "P1008", "P1017", "P2024"]);

/** @prisma/driver-adapter-utils error kinds. `SocketTimeout` is also how SQLite reports a database busy beyond its timeout. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "DatabaseDoesNotExist", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);

/** node-postgres reports a lost or never-established connection as a plain Error with one of these messages. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/, // pool
  /^timeout expired$/, // a single client's connect
  /^Query read timeout/,
  /not queryable/,
  /^Client was closed and is not queryable/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof TransactionWaitTimeout) return true;
  return causes(error).some(isUnavailableFailure);
}

function isUnavailableFailure(value: object): boolean {
  const { code, kind, originalCode, message } = value as { code?: unknown; kind?: unknown; originalCode?: unknown; message?: unknown };
  if (typeof code === "string" && (SOCKET_CODES.has(code) || POSTGRES_CODES.has(code) || PRISMA_CODES.has(code) || code.startsWith("08"))) return true;
  if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return true;
  if (typeof originalCode === "string" && (POSTGRES_CODES.has(originalCode) || originalCode.startsWith("08"))) return true;
  return typeof message === "string" && value instanceof Error && DRIVER_MESSAGES.some((pattern) => pattern.test(message));
}

/** The error and everything it wraps: `cause` chains, Prisma's `meta.driverAdapterError`, AggregateError members. */
function causes(error: unknown, seen = new Set<object>()): object[] {
  if (typeof error !== "object" || error === null || seen.has(error)) return [];
  seen.add(error);
  const wrapped = error as { cause?: unknown; meta?: { driverAdapterError?: unknown }; errors?: unknown };
  return [
    error,
    ...causes(wrapped.cause, seen),
    ...causes(wrapped.meta?.driverAdapterError, seen),
    ...(Array.isArray(wrapped.errors) ? wrapped.errors.flatMap((inner) => causes(inner, seen)) : []),
  ];
}
