// Recognises a lost race, whichever layer reports it: Prisma's known errors (P2034 write conflict
// or deadlock, P2002 unique violation, P1008 with SQLITE_BUSY) and the raw driver-adapter errors
// that arrive without a Prisma code (a serialization failure at COMMIT on PostgreSQL).
const RETRYABLE_PRISMA_CODES = new Set(["P2002", "P2034"]);
const RETRYABLE_ADAPTER_KINDS = new Set(["TransactionWriteConflict", "UniqueConstraintViolation"]);
/** PostgreSQL serialization failure and deadlock; SQLite's busy and locked families. */
const RETRYABLE_DATABASE_CODES = /^(40001|40P01|23505|SQLITE_BUSY\w*|SQLITE_LOCKED\w*|SQLITE_CONSTRAINT_UNIQUE|SQLITE_CONSTRAINT_PRIMARYKEY)$/;

interface AdapterCause {
  kind?: unknown;
  originalCode?: unknown;
}

function adapterCauses(error: unknown): AdapterCause[] {
  const candidate = error as { name?: unknown; cause?: AdapterCause; meta?: { driverAdapterError?: { cause?: AdapterCause } } } | null;
  if (!candidate || typeof candidate !== "object") return [];
  return [candidate.cause, candidate.meta?.driverAdapterError?.cause].filter((cause): cause is AdapterCause => !!cause && typeof cause === "object");
}

export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (RETRYABLE_PRISMA_CODES.has(code) || RETRYABLE_DATABASE_CODES.test(code))) return true;
  return adapterCauses(error).some(
    (cause) =>
      (typeof cause.kind === "string" && RETRYABLE_ADAPTER_KINDS.has(cause.kind)) ||
      (typeof cause.originalCode === "string" && RETRYABLE_DATABASE_CODES.test(cause.originalCode)),
  );
}
