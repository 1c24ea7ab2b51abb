// Serializable transactions for grant changes that read before they write (plan-limit counts,
// "does a row exist yet"). A lost race surfaces as P2002 (the other request inserted the same
// row) or P2034 (serialization failure); re-running the work then sees the winner's row, so the
// caller gets the answer it would have got had the requests arrived one after the other.
import { setTimeout as sleep } from "node:timers/promises";
import type { Database, Db } from "../db/client.js";

const RETRYABLE_CODES = new Set(["P2002", "P2034"]);
const ATTEMPTS = 6;

function isDatabase(db: Db): db is Database {
  return "$transaction" in db;
}

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && RETRYABLE_CODES.has(code);
}

/** Runs `work` in its own serializable transaction, or inside the caller's when `db` already is one. */
export async function inGrantTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  // Inside a caller's transaction (validate/apply) the caller owns atomicity and retries.
  if (!isDatabase(db)) return work(db);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.$transaction((tx) => work(tx), { isolationLevel: "Serializable" });
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
      await sleep(Math.random() * 10 * attempt);
    }
  }
}
