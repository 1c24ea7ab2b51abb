// Work to do once a transaction has committed (telling in-process listeners about its rows). The
// transaction's runner (writeTransaction) calls `transactionCommitted`; a rolled-back or retried
// attempt's callbacks are dropped with its transaction client.
import { isTransactionClient, type Db } from "./client.js";

const pending = new WeakMap<object, (() => void)[]>();

/** Runs `callback` after `db`'s transaction commits; at once when `db` is not a transaction (autocommit). */
export function afterCommit(db: Db, callback: () => void): void {
  if (!isTransactionClient(db)) {
    queueMicrotask(callback);
    return;
  }
  const callbacks = pending.get(db) ?? [];
  callbacks.push(callback);
  pending.set(db, callbacks);
}

export function transactionCommitted(tx: Db): void {
  const callbacks = pending.get(tx) ?? [];
  pending.delete(tx);
  for (const callback of callbacks) callback();
}
