// Turns a TOOLGATE_DATABASE_URL into a Prisma driver adapter factory for its provider.
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import { reusePreparedStatements } from "./sqlite-statement-cache.js";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory, SqlQuery } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { providerOf } from "./database-url.js";
import { clientWithReadTimeout } from "./read-timeout.js";
import { statementNameOf } from "./statement-names.js";

/**
 * better-sqlite3 waits for a lock synchronously, freezing the event loop; so it waits briefly and
 * writeTransaction retries SQLITE_BUSY asynchronously for up to its retry budget.
 */
const SQLITE_BUSY_TIMEOUT_MS = 20;

/** `file:./data/toolgate.db` → absolute path (`serve` and `migrate` create its folder: create-database.ts). */
export function sqliteFilePath(databaseUrl: string): string {
  return path.resolve(databaseUrl.slice("file:".length));
}

/** How toolgate talks to PostgreSQL; every wait is bounded so an outage becomes an error, not a hang. */
export interface PostgresSettings {
  /** Opening a connection, and waiting for a free one in the pool. */
  connectTimeoutMs: number;
  /** Server-side `statement_timeout`; the client gives up a little later, for partitions the server never hears about. */
  statementTimeoutMs: number;
  poolSize: number;
  /** Named prepared statements: each connection parses and plans a statement once, not at every use. */
  preparedStatements: boolean;
}

export const DEFAULT_POSTGRES_SETTINGS: PostgresSettings = { connectTimeoutMs: 5000, statementTimeoutMs: 15_000, poolSize: 10, preparedStatements: true };

/**
 * Set once per connection through the startup packet, not by a statement per transaction or query:
 * - Write transactions run at READ COMMITTED under their advisory locks (src/domain/write-transaction.ts),
 *   whatever the database's own default.
 * - The planner prices a random page read at 1.1 sequential reads (PostgreSQL's default is 4, a
 *   spinning disk's), as for SSDs and data held in memory. With 4, a list of 50 grants joined to their
 *   releases by primary key was planned as three sequential scans of every release (2,000 releases:
 *   7 ms of the database's time instead of 2; docs/performance.md).
 */
const CONNECTION_OPTIONS = "-c default_transaction_isolation=read\\ committed -c random_page_cost=1.1";

/** The node-postgres client/pool configuration for `settings`. */
export function postgresClientConfig(databaseUrl: string, settings: PostgresSettings = DEFAULT_POSTGRES_SETTINGS): pg.PoolConfig {
  return {
    connectionString: databaseUrl,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    options: CONNECTION_OPTIONS,
    keepAlive: true,
    max: settings.poolSize,
  };
}

export function createAdapterFactory(databaseUrl: string, postgres: PostgresSettings = DEFAULT_POSTGRES_SETTINGS): SqlMigrationAwareDriverAdapterFactory {
  if (providerOf(databaseUrl) === "sqlite") {
    return withReusedStatements(new PrismaBetterSqlite3({ url: sqliteFilePath(databaseUrl), timeout: SQLITE_BUSY_TIMEOUT_MS }));
  }
  // The client-side read timeout (read-timeout.ts): a statement's server-side limit, and a second more.
  const pool = new pg.Pool({ ...postgresClientConfig(databaseUrl, postgres), Client: clientWithReadTimeout(postgres.statementTimeoutMs + 1000) });
  pool.on("error", () => {}); // an idle connection dropped by the server is not our failure; the next query reports it
  const factory = new PrismaPg(pool, {
    disposeExternalPool: true,
    ...(postgres.preparedStatements ? { statementNameGenerator: statementNameOf as (query: SqlQuery) => string } : {}),
  });
  poolsByFactory.set(factory, pool);
  return factory;
}

const poolsByFactory = new WeakMap<object, pg.Pool>();

/** The node-postgres pool behind a factory made by `createAdapterFactory` (PostgreSQL only). */
export function postgresPoolOf(factory: object): pg.Pool | undefined {
  return poolsByFactory.get(factory);
}

/** Each connection the factory opens reuses its prepared statements (src/db/sqlite-statement-cache.ts). */
function withReusedStatements(factory: PrismaBetterSqlite3): PrismaBetterSqlite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    reusePreparedStatements((adapter as unknown as { client: BetterSqlite3.Database }).client);
    return adapter;
  };
  return factory;
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
const CHARACTER_COLUMN_TYPE = 6; // ColumnTypeEnum.Character

type Queryable = {
  performIO(query: object): Promise<pg.QueryResult>;
  queryRaw(query: object): Promise<{ columnTypes: number[] }>;
  startTransaction?(isolationLevel?: unknown): Promise<Queryable>;
};

/**
 * The schema engine reads pg_catalog columns of PostgreSQL's internal `"char"` type, which
 * @prisma/adapter-pg 7 cannot map (it throws UnsupportedNativeDataType). We let the adapter see
 * them as text and then report them to the engine as Character, the type it expects.
 */
function reportCatalogCharColumns<T extends Queryable>(queryable: T): T {
  const charColumns = new WeakMap<object, number[]>();
  const performIO = queryable.performIO.bind(queryable);
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.performIO = async (query) => {
    const result = await performIO(query);
    const indices = result.fields.flatMap((field, index) => (field.dataTypeID === PG_CHAR_OID ? [index] : []));
    for (const index of indices) result.fields[index]!.dataTypeID = PG_TEXT_OID;
    if (indices.length > 0) charColumns.set(query, indices);
    return result;
  };
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of charColumns.get(query) ?? []) result.columnTypes[index] = CHARACTER_COLUMN_TYPE;
    return result;
  };
  const startTransaction = queryable.startTransaction?.bind(queryable);
  if (startTransaction) {
    queryable.startTransaction = async (isolationLevel) => reportCatalogCharColumns(await startTransaction(isolationLevel));
  }
  return queryable;
}

export interface MigrationAdapter {
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** Ends the connection pool the factory owns, if any. */
  end(): Promise<void>;
}

/** Adapter factory for the schema engine (migrations, drift checks). */
export function createMigrationAdapter(databaseUrl: string): MigrationAdapter {
  if (providerOf(databaseUrl) === "sqlite") return { factory: createAdapterFactory(databaseUrl), end: async () => {} };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on("error", () => {}); // an idle connection dropped by the server is not our failure
  const factory = new PrismaPg(pool);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => reportCatalogCharColumns((await connect()) as unknown as Queryable) as never;
  return { factory, end: () => pool.end() };
}
