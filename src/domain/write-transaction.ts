// The one way toolgate writes: `writeTransaction` runs a unit of work in a transaction that holds
// the locks of the accounts and environments whose limits or rows it changes, and re-runs it when the database
// reports a lost race. Re-running reads the winner's rows, so the caller gets the answer it would
// have got had the requests arrived one after the other; after the retry budget it gets 409
// CONCURRENT_UPDATE, never a driver error.
//
// PostgreSQL: READ COMMITTED plus transaction-scoped advisory locks (per account, per environment).
// A lock serializes every write that checks a plan limit of its scope (counts, "is there a row
// yet") across connections and replicas; READ COMMITTED lets each statement after the lock see what the
// previous holder committed (a SERIALIZABLE snapshot would predate the wait and fail instead).
// SQLite: transactions are serializable and, within this process, serialized by the connection's
// gate (src/db/sqlite-isolation.ts); other processes are detected as SQLITE_BUSY and retried.
import { setTimeout as sleep } from "node:timers/promises";
import { beginStatementTransactionOn, isTransactionClient, providerOfClient, rememberTransactionClient, type Database, type Db } from "../db/client.js";
import { isRetryableConflict } from "../db/conflicts.js";
import { transactionCommitted } from "../db/after-commit.js";
import { DomainError } from "./errors.js";
import { flushEvents, openEventBuffer } from "./event-streams.js";

/**
 * What a write locks: the account or environment whose plan limit it checks (published releases
 * and environments per account; active grants per environment) or whose rows it plans against.
 */
export const writeLock = {
  account: (id: string) => `account:${id}`,
  environment: (id: string) => `environment:${id}`,
};

const RETRY_BUDGET_MS = 5_000;
const BACKOFF_CAP_MS = 100;

/** How long a transaction may wait for a pooled connection, and run (locks included). */
const TRANSACTION_TIMING = { maxWait: 10_000, timeout: 30_000 } as const;

export const concurrentUpdate = () => new DomainError("CONCURRENT_UPDATE", "a concurrent request changed the same data; retry the request");

/**
 * Thrown by a unit of work that finds rows it checked changed before it wrote them: the transaction
 * is re-run like one the database reported as a lost race, so its checks answer for the new state.
 */
export class LostRace extends Error {
  constructor(what: string) {
    super(`lost a race: ${what}`);
  }
}

/**
 * How a write transaction sends its statements: through Prisma's transaction client, or below
 * Prisma's engine (src/db/statement-transaction.ts) for units of work that make only the calls
 * that client answers (a grant's creation and deletion, an apply that publishes nothing).
 */
export type WriteStatements = "prisma" | "below-engine";

/**
 * Runs `work` in a write transaction holding `locks` (see `writeLock`). Inside a caller's transaction
 * (apply composes grant changes) it takes the locks too (they are re-entrant) and leaves retries to
 * the caller.
 */
export async function writeTransaction<T>(db: Db, locks: readonly string[], work: (tx: Db) => Promise<T>, statements: WriteStatements = "prisma"): Promise<T> {
  if (isTransactionClient(db)) {
    await takeLocks(db, locks);
    return work(db);
  }
  const database = db as Database;
  const started = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { result, tx } = await (statements === "below-engine" ? attemptBelowEngine : attemptWithPrisma)(database, locks, work);
      transactionCommitted(tx);
      return result;
    } catch (error) {
      if (!isRetryableConflict(error) && !(error instanceof LostRace)) throw error;
      if (Date.now() - started >= RETRY_BUDGET_MS) throw concurrentUpdate();
      await sleep(Math.random() * Math.min(BACKOFF_CAP_MS, 2 ** attempt));
    }
  }
}

type Attempt = <T>(database: Database, locks: readonly string[], work: (tx: Db) => Promise<T>) => Promise<{ result: T; tx: Db }>;

/** The unit of work with its locks and events, on a transaction client. */
async function unitOfWork<T>(database: Database, tx: Db, locks: readonly string[], work: (tx: Db) => Promise<T>): Promise<T> {
  rememberTransactionClient(database, tx);
  await takeLocks(tx, locks);
  openEventBuffer(tx);
  const result = await work(tx);
  await flushEvents(tx);
  return result;
}

const attemptWithPrisma: Attempt = async (database, locks, work) => {
  let tx: Db | undefined;
  const result = await database.$transaction(
    (client) => unitOfWork(database, (tx = client), locks, work),
    // PostgreSQL's connections default to READ COMMITTED (src/db/connection.ts), so no level is
    // named there: naming one costs a statement per transaction. SQLite's only level is Serializable.
    { ...TRANSACTION_TIMING, ...(providerOfClient(database) === "postgresql" ? {} : { isolationLevel: "Serializable" as const }) },
  );
  return { result, tx: tx! };
};

const attemptBelowEngine: Attempt = async (database, locks, work) => {
  const transaction = await beginStatementTransactionOn(database, TRANSACTION_TIMING.maxWait);
  const tx = transaction.client as Db;
  try {
    const result = await unitOfWork(database, tx, locks, work);
    await transaction.commit();
    return { result, tx };
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
};

/**
 * Takes `locks` until the transaction ends, for work that learns what to lock from a first read
 * (a grant's environment). Statements after it see everything the previous holder committed.
 */
export async function takeLocks(tx: Db, locks: readonly string[]): Promise<void> {
  // SQLite transactions are serializable already (see above).
  if (locks.length === 0 || providerOfClient(tx) !== "postgresql") return;
  // Sorted: two transactions that lock the same keys take them in one order, so never deadlock. One
  // statement: a function scan yields the array's elements in order, and each row takes its lock.
  const keys = [...new Set(locks)].sort().map((key) => `toolgate:${key}`);
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended("key", 0)) FROM unnest(${keys}::text[]) AS "key"`;
}
