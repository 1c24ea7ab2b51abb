// Owns the Prisma client: one client type for the rest of the code, whichever provider serves it.
import { PrismaClient as PostgresClient } from "./generated/postgresql/client.js";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client.js";
import { createAdapterFactory, DEFAULT_POSTGRES_SETTINGS, postgresPoolOf, type PostgresSettings } from "./connection.js";
import { providerOf } from "./database-url.js";
import type { DatabaseProvider } from "./prisma-schemas.js";
import { withAdapterAccess } from "./adapter-access.js";
import { dataVersionReader, type DataVersionReader } from "./data-version.js";
import { definitionTextReader, type DefinitionTextReader } from "./definition-texts.js";
import { plannedReader, type PlannedReader } from "./planned-read-runner.js";
import { planFindFirst, planFindMany, type PlannedModel } from "./planned-reads.js";
import { withQueryTiming, type QueryObserver } from "./query-timing.js";
import { withSqliteIsolation } from "./sqlite-isolation.js";
import { beginStatementTransaction, type StatementTransaction, type TransactionSource } from "./statement-transaction.js";

/** The client type every module sees. Both generated clients share models and query API. */
export type Database = SqliteClient;
export type { Prisma } from "./generated/sqlite/client.js";
import type { Prisma as PrismaNamespace, ApiToken, Environment, Grant, ToolRelease } from "./generated/sqlite/client.js";

/** What domain functions take: the client, or the transaction client inside `$transaction`. */
export type Db = Database | PrismaNamespace.TransactionClient;

export interface DatabaseOptions {
  /** Called for every SQL statement Prisma sends; used by tests that count queries. */
  onQuery?: (sql: string) => void;
  /** Timeouts and pool size on PostgreSQL; defaults when absent. */
  postgres?: PostgresSettings;
  /** Called with every statement's kind and duration, timed at the driver adapter (metrics). */
  observeQuery?: QueryObserver;
}

/** The connection pool's state (PostgreSQL); what the metrics report. */
export interface PoolUsage {
  /** Open connections, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

const poolUsageReaders = new WeakMap<object, () => PoolUsage>();

/** The pool's state behind a client opened by `openDatabase`; undefined on SQLite (one connection, no pool). */
export function poolUsageOf(db: Database): PoolUsage | undefined {
  return poolUsageReaders.get(db)?.();
}

const providers = new WeakMap<object, DatabaseProvider>();
const dataVersionReaders = new WeakMap<object, DataVersionReader>();
const definitionTextReaders = new WeakMap<object, DefinitionTextReader>();
const plannedReaders = new WeakMap<object, PlannedReader>();

/** Reads the data version (src/db/data-version.ts) of a client opened by `openDatabase`. */
export function dataVersionOf(db: Database): DataVersionReader {
  const reader = dataVersionReaders.get(db);
  if (!reader) throw new Error("dataVersionOf: not a client opened by openDatabase");
  return reader;
}

/**
 * Reads stored definition texts (src/db/definition-texts.ts) of a client opened by `openDatabase`.
 * Not of a transaction's: on SQLite its statements would wait for the transaction to end.
 */
export function definitionTextsOf(db: Db): DefinitionTextReader {
  const reader = definitionTextReaders.get(db);
  if (!reader) throw new Error("definitionTextsOf: not a client opened by openDatabase");
  return reader;
}

type FindFirstArgs = Record<string, unknown> & { where: unknown };

/** The planned reader of a client opened by `openDatabase` (tests compare it with Prisma). */
export function plannedReaderOf(db: Db): PlannedReader {
  const reader = plannedReaders.get(db);
  if (!reader) throw new Error("plannedReaderOf: not a client opened by openDatabase");
  return reader;
}

/**
 * `db[model].findFirst(args)` in one statement below Prisma's engine when its arguments are within
 * what src/db/planned-reads.ts translates, else Prisma's. A client opened by `openDatabase` sends the
 * statement to the driver; a transaction sends it as a raw query of the transaction (Prisma's raw
 * queries skip the engine's query building and result mapping), so it reads the transaction's own
 * writes and what its locks protect.
 */
export function findFirstPlanned<M extends PlannedModel>(db: Db, model: M, args: FindFirstArgs): Promise<PlannedRows[M] | null> {
  const planned = plannedReaders.get(db)?.(model, args) ?? planInTransaction(db, model, args);
  if (planned) return planned as Promise<PlannedRows[M] | null>;
  return (db[model] as unknown as { findFirst(args: FindFirstArgs): Promise<PlannedRows[M] | null> }).findFirst(args);
}

function planInTransaction(db: Db, model: PlannedModel, args: FindFirstArgs): Promise<unknown> | undefined {
  const plan = isTransactionClient(db) ? planFindFirst(dialectOf(db), model, args) : undefined;
  return plan && readInTransaction(db, plan, "row");
}

/**
 * `db[model].findMany(args)`, in one statement below Prisma's engine inside a write transaction when
 * its arguments are within what src/db/planned-reads.ts translates (an order is required), else Prisma's.
 */
export function findManyPlanned<M extends PlannedModel, S extends Selections[M]>(
  db: Db,
  model: M,
  args: { where: Filters[M]; select: S; orderBy: unknown; take?: number },
): Promise<Selected<M, S>[]> {
  const plan = isTransactionClient(db) ? planFindMany(dialectOf(db), model, args) : undefined;
  if (plan) return readInTransaction(db, plan, "rows") as Promise<Selected<M, S>[]>;
  return (db[model] as unknown as { findMany(args: object): Promise<Selected<M, S>[]> }).findMany(args);
}

/** `findFirstPlanned` of a `select`, answered as Prisma types that selection's row. */
export function findFirstSelected<M extends PlannedModel, S extends Selections[M]>(
  db: Db,
  model: M,
  where: Filters[M],
  select: S,
): Promise<Selected<M, S> | null> {
  return findFirstPlanned(db, model, { where, select }) as Promise<Selected<M, S> | null>;
}

interface Selections {
  apiToken: PrismaNamespace.ApiTokenSelect;
  grant: PrismaNamespace.GrantSelect;
  environment: PrismaNamespace.EnvironmentSelect;
  toolRelease: PrismaNamespace.ToolReleaseSelect;
}

interface Filters {
  apiToken: PrismaNamespace.ApiTokenWhereInput;
  grant: PrismaNamespace.GrantWhereInput;
  environment: PrismaNamespace.EnvironmentWhereInput;
  toolRelease: PrismaNamespace.ToolReleaseWhereInput;
}

/** The row `select` answers on `model`. */
type Selected<M extends PlannedModel, S> = M extends "grant"
  ? S extends PrismaNamespace.GrantSelect
    ? PrismaNamespace.GrantGetPayload<{ select: S }>
    : never
  : M extends "environment"
    ? S extends PrismaNamespace.EnvironmentSelect
      ? PrismaNamespace.EnvironmentGetPayload<{ select: S }>
      : never
    : M extends "toolRelease"
      ? S extends PrismaNamespace.ToolReleaseSelect
        ? PrismaNamespace.ToolReleaseGetPayload<{ select: S }>
        : never
      : S extends PrismaNamespace.ApiTokenSelect
        ? PrismaNamespace.ApiTokenGetPayload<{ select: S }>
        : never;

const dialectOf = (db: Db) => ({ postgres: providerOfClient(db) === "postgresql" });

function readInTransaction(tx: Db, plan: { sql: string; args: unknown[]; decode(value: unknown): unknown }, column: "row" | "rows"): Promise<unknown> {
  return tx.$queryRawUnsafe<Array<Record<string, unknown>>>(plan.sql, ...plan.args).then((rows) => plan.decode(rows[0]?.[column]));
}

interface PlannedRows {
  apiToken: ApiToken;
  grant: Grant;
  environment: Environment;
  toolRelease: ToolRelease;
}

/** The provider behind a client opened by `openDatabase`, or behind a transaction client of one. */
export function providerOfClient(db: Db): DatabaseProvider {
  const provider = providers.get(db);
  if (!provider) throw new Error("providerOfClient: not a client opened by openDatabase, nor one of its transactions");
  return provider;
}

const transactionClients = new WeakSet<object>();

/** Records that a transaction client belongs to `parent`'s provider. */
export function rememberTransactionClient(parent: Db, tx: Db): void {
  providers.set(tx, providerOfClient(parent));
  transactionClients.add(tx);
}

/** Whether `db` is a transaction's client (recorded by `rememberTransactionClient`). Prisma's own transaction clients still answer `"$transaction" in tx`. */
export function isTransactionClient(db: Db): boolean {
  return transactionClients.has(db);
}

const statementTransactionStarters = new WeakMap<object, (maxWaitMs: number) => Promise<StatementTransaction>>();

/** Begins a transaction below Prisma's engine on a client opened by `openDatabase` (src/db/statement-transaction.ts). */
export function beginStatementTransactionOn(db: Database, maxWaitMs: number): Promise<StatementTransaction> {
  const begin = statementTransactionStarters.get(db);
  if (!begin) throw new Error("beginStatementTransactionOn: not a client opened by openDatabase");
  return begin(maxWaitMs);
}

export async function openDatabase(databaseUrl: string, options: DatabaseOptions = {}): Promise<Database> {
  const provider = providerOf(databaseUrl);
  const log = options.onQuery ? [{ emit: "event" as const, level: "query" as const }] : [];
  const factory = createAdapterFactory(databaseUrl, options.postgres);
  const timed = options.observeQuery ? withQueryTiming(factory, options.observeQuery) : factory;
  const reachable = withAdapterAccess(provider === "sqlite" ? withSqliteIsolation(timed) : timed);
  const client =
    provider === "sqlite"
      ? new SqliteClient({ adapter: reachable.factory, log })
      : (new PostgresClient({ adapter: reachable.factory, log }) as unknown as SqliteClient);
  providers.set(client, provider);
  dataVersionReaders.set(client, dataVersionReader(reachable.access, options.onQuery));
  const pool = postgresPoolOf(factory);
  const preparedStatements = (options.postgres ?? DEFAULT_POSTGRES_SETTINGS).preparedStatements;
  definitionTextReaders.set(client, definitionTextReader(reachable.access, pool && { pool, preparedStatements }, options.onQuery));
  plannedReaders.set(client, plannedReader(reachable.access, pool && { pool, preparedStatements }, options.onQuery, options.observeQuery));
  const source: TransactionSource = pool ? { postgres: { pool, preparedStatements }, observe: options.observeQuery } : { access: reachable.access };
  statementTransactionStarters.set(client, (maxWaitMs) => beginStatementTransaction(source, maxWaitMs, options.onQuery));
  if (pool) poolUsageReaders.set(client, () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }));
  if (options.onQuery) {
    const onQuery = options.onQuery;
    (client as unknown as { $on(event: "query", cb: (e: { query: string }) => void): void }).$on("query", (event) => onQuery(event.query));
  }
  await client.$connect();
  if (provider === "sqlite") {
    // WAL lets readers proceed during a write; foreign keys are off by default in SQLite.
    await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await client.$executeRawUnsafe("PRAGMA foreign_keys = ON");
  }
  return client;
}
