// A write transaction below Prisma's engine, for the hottest writes (a grant's creation and
// deletion). Prisma's client spends about 0.2 ms of CPU on every statement it sends, a raw
// `SELECT 1` as much as a model query, whatever the database does (docs/performance.md, "Writes"):
// most of such a write's cost below the HTTP and GraphQL layers. Here the transaction is begun and
// ended by toolgate on what Prisma's adapter uses: on PostgreSQL a connection of its pool (statements
// named as Prisma's are, timed for the metrics), on SQLite the adapter's own transaction behind the
// isolation gate. The client handed to the domain answers the calls those writes make, one statement
// each: raw statements ($queryRawUnsafe, $executeRawUnsafe, $executeRaw), planned reads
// (findFirstPlanned runs its plan as a raw query) and planned writes of grants (planned-writes.ts).
// Any other call throws, so a domain change that reaches for more fails its tests instead of
// running outside the transaction. Each statement is bounded by PostgreSQL's statement timeout (and
// the client's read timeout); beginning waits at most `maxWaitMs`, as Prisma's `maxWait`.
import type { SqlDriverAdapter, SqlQuery } from "@prisma/driver-adapter-utils";
import type { AdapterAccess } from "./adapter-access.js";
import { argTypeOf } from "./arg-types.js";
import type { PostgresPool } from "./definition-texts.js";
import { planCreate, planUpdate } from "./planned-writes.js";
import { timed, type QueryObserver } from "./query-timing.js";
import { statementNameOf } from "./statement-names.js";

/** A transaction begun below the engine: `client` is what the unit of work is given. */
export interface StatementTransaction {
  client: object;
  commit(): Promise<void>;
  /** Ends the transaction after a failure; never throws (the failure is what the caller reports). */
  rollback(): Promise<void>;
}

/** No transaction could start within the wait (SQLite's gate, held by long transactions): the database is too busy to answer now. */
export class TransactionWaitTimeout extends Error {
  constructor(waitMs: number) {
    super(`no write transaction could start within ${waitMs} ms`);
    this.name = "TransactionWaitTimeout";
  }
}

/** Where the transaction's statements go: a connection of the pool, or the adapter's transaction. */
interface Connection {
  query(sql: string, args: readonly unknown[]): Promise<Record<string, unknown>[]>;
  execute(sql: string, args: readonly unknown[]): Promise<number>;
  /** Sends COMMIT or ROLLBACK and gives the connection back, whatever the statement's outcome. */
  end(statement: "COMMIT" | "ROLLBACK"): Promise<void>;
}

/** Where a client opened by `openDatabase` begins these transactions. */
export type TransactionSource =
  /** PostgreSQL: a connection of the adapter's pool, statements named as Prisma's are (statement-names.ts), timed by `observe`. */
  | { postgres: PostgresPool; observe?: QueryObserver }
  /** SQLite: the adapter's own transaction, behind the isolation gate (its statements timed by the adapter). */
  | { access: AdapterAccess };

/**
 * Begins a transaction (PostgreSQL: a pooled connection and BEGIN; SQLite: the gate and BEGIN),
 * waiting at most `maxWaitMs` for it. `report` is told each statement, as Prisma's query log is.
 */
export async function beginStatementTransaction(source: TransactionSource, maxWaitMs: number, report?: (sql: string) => void): Promise<StatementTransaction> {
  const postgres = "postgres" in source;
  const connection = postgres
    ? await poolTransaction(source.postgres, maxWaitMs, source.observe)
    : await adapterTransaction(source.access.adapter(), maxWaitMs);
  const dialect = { postgres };
  const query = (sql: string, args: readonly unknown[]) => {
    report?.(sql);
    return connection.query(sql, args);
  };
  const execute = (sql: string, args: readonly unknown[]) => {
    report?.(sql);
    return connection.execute(sql, args);
  };
  let ended = false;
  const end = async (statement: "COMMIT" | "ROLLBACK") => {
    // A failed COMMIT has handed the connection back already: the rollback after it sends nothing.
    if (ended) return;
    ended = true;
    report?.(statement);
    await connection.end(statement);
  };
  const client = {
    $queryRawUnsafe: (sql: string, ...args: unknown[]) => query(sql, args),
    $executeRawUnsafe: (sql: string, ...args: unknown[]) => execute(sql, args),
    $executeRaw: (strings: TemplateStringsArray, ...values: unknown[]) =>
      execute(
        strings.reduce((sql, part, index) => `${sql}${postgres ? `$${index}` : "?"}${part}`),
        values,
      ),
    grant: {
      create: ({ data }: { data: Record<string, unknown> }) => {
        const plan = planCreate(dialect, "grant", data);
        return execute(plan.sql, plan.args).then(() => plan.row);
      },
      update: async ({ where, data }: { where: Record<string, unknown>; data: Record<string, unknown> }) => {
        const plan = planUpdate(dialect, "grant", where, data, true);
        const rows = await query(plan.sql, plan.args);
        if (rows.length !== 1) throw new Error(`grant.update: ${rows.length} rows matched ${JSON.stringify(where)}`);
        return plan.decode(rows[0]!.row);
      },
      updateMany: ({ where, data }: { where: Record<string, unknown>; data: Record<string, unknown> }) => {
        const plan = planUpdate(dialect, "grant", where, data);
        return execute(plan.sql, plan.args).then((count) => ({ count }));
      },
    },
  };
  return {
    client: refusingOthers({ ...client, grant: refusingOthers(client.grant) }),
    commit: () => end("COMMIT"),
    rollback: () => end("ROLLBACK").catch(() => {}),
  };
}

async function poolTransaction({ pool, preparedStatements }: PostgresPool, maxWaitMs: number, observe?: QueryObserver): Promise<Connection> {
  const connection = await withinWait(pool.connect(), maxWaitMs, (late) => late.release());
  const send = (sql: string, args: readonly unknown[]) => {
    // BEGIN, COMMIT and ROLLBACK (no arguments) go as simple queries: one message, nothing to prepare.
    const name = preparedStatements && args.length > 0 ? statementNameOf({ sql, args }) : undefined;
    // A timestamp column takes the UTC time of ISO text and ignores its zone, as Prisma's adapter
    // writes it; node-postgres would send a Date in the process's own time zone.
    const values = args.map((arg) => (arg instanceof Date ? arg.toISOString() : arg));
    const run = () => (args.length === 0 ? connection.query(sql) : connection.query({ ...(name ? { name } : {}), text: sql, values }));
    return observe ? timed(sql, run, observe) : run();
  };
  try {
    await send("BEGIN", []);
  } catch (error) {
    connection.release(error as Error);
    throw error;
  }
  return {
    query: async (sql, args) => (await send(sql, args)).rows as Record<string, unknown>[],
    execute: async (sql, args) => (await send(sql, args)).rowCount ?? 0,
    end: async (statement) => {
      try {
        await send(statement, []);
        connection.release();
      } catch (error) {
        // A connection that failed to end its transaction is not given to another request.
        connection.release(error as Error);
        throw error;
      }
    },
  };
}

async function adapterTransaction(adapter: SqlDriverAdapter, maxWaitMs: number): Promise<Connection> {
  const transaction = await withinWait(adapter.startTransaction(), maxWaitMs, (late) =>
    late
      .executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] })
      .finally(() => late.rollback())
      .catch(() => {}),
  );
  const statement = (sql: string, args: readonly unknown[]): SqlQuery => ({ sql, args: [...args], argTypes: args.map(argTypeOf) });
  return {
    query: async (sql, args) => {
      const { columnNames, rows } = await transaction.queryRaw(statement(sql, args));
      return rows.map((values) => Object.fromEntries(columnNames.map((name, index) => [name, values[index]])));
    },
    execute: (sql, args) => transaction.executeRaw(statement(sql, args)),
    end: async (sql) => {
      try {
        await transaction.executeRaw(statement(sql, []));
      } finally {
        // Opens the gate; the engine's transactions end the same way (SQL, then this).
        await (sql === "COMMIT" ? transaction.commit() : transaction.rollback());
      }
    },
  };
}

/** `answers`, refusing every other property: probes by await, inspection and the like find nothing. */
function refusingOthers<T extends object>(answers: T): T {
  return new Proxy(answers, {
    get(target, key) {
      if (key in target) return target[key as keyof T];
      if (typeof key === "symbol" || key === "then" || key === "toJSON") return undefined;
      throw new Error(`${key} is not available in a write transaction below Prisma's engine (src/db/statement-transaction.ts)`);
    },
  });
}

/** `started`, unless `waitMs` pass first: then `abandon` ends what starts late, and the wait fails. */
async function withinWait<T>(started: Promise<T>, waitMs: number, abandon: (late: T) => unknown): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TransactionWaitTimeout(waitMs)), waitMs);
  });
  try {
    return await Promise.race([started, timedOut]);
  } catch (error) {
    if (error instanceof TransactionWaitTimeout) started.then(abandon, () => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
