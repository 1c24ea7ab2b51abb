// A write transaction below Prisma's engine, for the hottest writes (a grant's creation and
// deletion). Prisma's client spends about 0.2 ms of CPU on every statement it sends, a raw
// `SELECT 1` as much as a model query, whatever the database does (docs/performance.md, "Writes"):
// most of such a write's cost below the HTTP and GraphQL layers. Here the transaction is the driver
// adapter's own, begun and ended here: the same pool (PostgreSQL, named prepared statements) or the
// same isolation gate (SQLite), every statement timed for the metrics as Prisma's are. The client
// handed to the domain answers the calls those writes make, one statement each: raw statements
// ($queryRawUnsafe, $executeRawUnsafe, $executeRaw), planned reads (findFirstPlanned runs its plan
// as a raw query) and planned writes of grants (planned-writes.ts). Any other call throws, so a
// domain change that reaches for more fails its tests instead of running outside the transaction.
import type { ArgType, SqlDriverAdapter, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import type { Dialect } from "./planned-reads.js";
import { planCreate, planUpdate } from "./planned-writes.js";

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

/**
 * Begins a transaction on `adapter` (PostgreSQL: a pooled connection and BEGIN; SQLite: the gate and
 * BEGIN), waiting at most `maxWaitMs` for it. `report` is told each statement, as Prisma's query log is.
 */
export async function beginStatementTransaction(
  adapter: SqlDriverAdapter,
  dialect: Dialect,
  maxWaitMs: number,
  report?: (sql: string) => void,
): Promise<StatementTransaction> {
  const transaction = await withinWait(adapter.startTransaction(), maxWaitMs);
  const run = (sql: string, args: readonly unknown[]): SqlQuery => {
    report?.(sql);
    return { sql, args: [...args], argTypes: args.map(argTypeOf) };
  };
  const query = async (sql: string, args: readonly unknown[]): Promise<Record<string, unknown>[]> => {
    const { columnNames, rows } = await transaction.queryRaw(run(sql, args));
    return rows.map((values) => Object.fromEntries(columnNames.map((name, index) => [name, values[index]])));
  };
  const execute = (sql: string, args: readonly unknown[]) => transaction.executeRaw(run(sql, args));
  let ended = false;
  const end = async (statement: "COMMIT" | "ROLLBACK") => {
    // A failed COMMIT has handed the connection back already: the rollback after it sends nothing.
    if (ended) return;
    ended = true;
    try {
      await transaction.executeRaw(run(statement, []));
    } finally {
      // Returns the connection to the pool (PostgreSQL) or opens the gate (SQLite).
      await (statement === "COMMIT" ? transaction.commit() : transaction.rollback());
    }
  };
  const client = {
    $queryRawUnsafe: (sql: string, ...args: unknown[]) => query(sql, args),
    $executeRawUnsafe: (sql: string, ...args: unknown[]) => execute(sql, args),
    $executeRaw: (strings: TemplateStringsArray, ...values: unknown[]) =>
      execute(
        strings.reduce((sql, part, index) => `${sql}${dialect.postgres ? `$${index}` : "?"}${part}`),
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

/** `started`, unless `waitMs` pass first: then the transaction is ended as soon as it starts, and the wait fails. */
async function withinWait(started: Promise<Transaction>, waitMs: number): Promise<Transaction> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TransactionWaitTimeout(waitMs)), waitMs);
  });
  try {
    return await Promise.race([started, timedOut]);
  } catch (error) {
    if (error instanceof TransactionWaitTimeout) {
      started.then(
        (late) =>
          late
            .executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] })
            .finally(() => late.rollback())
            .catch(() => {}),
        () => {},
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function argTypeOf(value: unknown): ArgType {
  if (Array.isArray(value)) return { ...argTypeOf(value[0] ?? ""), arity: "list" };
  if (typeof value === "number") return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
  if (typeof value === "boolean") return { scalarType: "boolean", arity: "scalar" };
  if (value instanceof Date) return { scalarType: "datetime", arity: "scalar" };
  return { scalarType: "string", arity: "scalar" };
}
