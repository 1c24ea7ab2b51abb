// Transaction isolation on toolgate's one SQLite connection, by construction. Every request shares
// the connection, so without a gate a statement of one request could run inside another request's
// open transaction (and commit or roll back with it) or read its uncommitted rows. The gate admits
// one transaction at a time and holds plain statements while a transaction is open; a transaction
// may then await anything (I/O, timers) without another request slipping into it.
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";

/** A FIFO mutex: `acquire` resolves with the function that releases it. */
class Gate {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.#tail.then(() => once(release));
    this.#tail = this.#tail.then(() => released);
    return acquired;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

function once(release: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}

function gatedTransaction(transaction: Transaction, release: () => void): Transaction {
  const commit = transaction.commit.bind(transaction);
  const rollback = transaction.rollback.bind(transaction);
  // The engine sends COMMIT/ROLLBACK as SQL through the transaction, then calls these.
  transaction.commit = () => commit().finally(release);
  transaction.rollback = () => rollback().finally(release);
  return transaction;
}

function gatedAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const gate = new Gate();
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query: SqlQuery) => gate.run(() => adapter.queryRaw(query)),
    executeRaw: (query: SqlQuery) => gate.run(() => adapter.executeRaw(query)),
    executeScript: (script: string) => gate.run(() => adapter.executeScript(script)),
    startTransaction: async (isolationLevel?: IsolationLevel) => {
      const release = await gate.acquire();
      try {
        return gatedTransaction(await adapter.startTransaction(isolationLevel), release);
      } catch (error) {
        release();
        throw error;
      }
    },
    ...(adapter.getConnectionInfo ? { getConnectionInfo: () => adapter.getConnectionInfo!() } : {}),
    dispose: () => adapter.dispose(),
  };
}

/** Wraps a SQLite adapter factory so that each connection it makes is gated. */
export function withSqliteIsolation(factory: SqlMigrationAwareDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => gatedAdapter(await factory.connect()),
  };
}
