// Times every SQL statement at the driver adapter, below Prisma's engine and (on SQLite) inside
// the isolation gate, so a duration is the database's and the driver's, not time spent queued.
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";

export const STATEMENT_KINDS = ["select", "insert", "update", "delete", "other"] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** Called once per statement with its kind and duration in seconds. */
export type QueryObserver = (kind: StatementKind, seconds: number) => void;

/** By the statement's first keyword; startsWith allocates nothing. */
function statementKind(sql: string): StatementKind {
  if (sql.startsWith("SELECT") || sql.startsWith("WITH")) return "select";
  if (sql.startsWith("INSERT")) return "insert";
  if (sql.startsWith("UPDATE")) return "update";
  if (sql.startsWith("DELETE")) return "delete";
  return "other";
}

type Queryable = Pick<SqlDriverAdapter, "queryRaw" | "executeRaw">;

function timeStatements<T extends Queryable>(queryable: T, observe: QueryObserver): T {
  const queryRaw = queryable.queryRaw.bind(queryable);
  const executeRaw = queryable.executeRaw.bind(queryable);
  queryable.queryRaw = (query: SqlQuery) => timed(query.sql, () => queryRaw(query), observe);
  queryable.executeRaw = (query: SqlQuery) => timed(query.sql, () => executeRaw(query), observe);
  return queryable;
}

/** Runs `run`, the statement `sql`, and reports its duration to `observe`. */
export async function timed<T>(sql: string, run: () => Promise<T>, observe: QueryObserver): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    observe(statementKind(sql), (performance.now() - started) / 1000);
  }
}

/** Each connection the factory opens, and each transaction on it, reports its statements to `observe`. */
export function withQueryTiming<F extends SqlMigrationAwareDriverAdapterFactory>(factory: F, observe: QueryObserver): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = timeStatements(await connect(), observe);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => timeStatements<Transaction>(await startTransaction(isolationLevel), observe);
    return adapter;
  };
  return factory;
}
