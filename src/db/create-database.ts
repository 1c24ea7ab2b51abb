// A database that `serve` or `migrate` is pointed at but that does not exist yet is created: an
// SQLite file's folders (the file itself is created when opened), a PostgreSQL database by the same
// role, through the server's maintenance database. A role that may not create databases gets one
// line saying so and the statement an administrator can run instead. The admin commands create
// nothing: a mistyped URL is refused (`requireExistingDatabase`).
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { postgresClientConfig, sqliteFilePath, type PostgresSettings } from "./connection.js";
import { providerOf } from "./database-url.js";
import { redactDatabaseUrl } from "./redact.js";

/** The database is missing and could not be created; the message is one line, for the operator. */
export class DatabaseCreationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DatabaseCreationError";
  }
}

const MISSING_DATABASE = "3D000";
const DUPLICATE_DATABASE = "42P04";
const INSUFFICIENT_PRIVILEGE = "42501";
/** Where CREATE DATABASE is run from: `postgres` exists on every stock server, `template1` on all. */
const MAINTENANCE_DATABASES = ["postgres", "template1"];

/**
 * Creates the database `databaseUrl` names when the server reports it missing; returns its name
 * when it was created now, undefined when it existed (or the URL is SQLite's). Any other failure to
 * connect is rethrown as it came, for the caller's start-up error.
 */
export async function createDatabaseIfMissing(databaseUrl: string, settings: PostgresSettings): Promise<string | undefined> {
  if (providerOf(databaseUrl) === "sqlite") {
    createMissingFolders(path.dirname(sqliteFilePath(databaseUrl)));
    return undefined;
  }
  const target = await connectsUnlessMissing(databaseUrl, settings);
  if (target === "exists") return undefined;
  const { database, user, host, port } = target;
  const where = `${host}:${port}`;
  try {
    await onMaintenanceDatabase(databaseUrl, settings, (client) => client.query(`CREATE DATABASE ${pg.escapeIdentifier(database!)}`));
    return database!;
  } catch (error) {
    if (sqlState(error) === DUPLICATE_DATABASE) return undefined; // another replica created it meanwhile
    const reason = (error as Error).message;
    const advice =
      sqlState(error) === INSUFFICIENT_PRIVILEGE
        ? `role "${user}" may not create it (${reason}); as a superuser, run: CREATE DATABASE ${pg.escapeIdentifier(database!)} OWNER ${pg.escapeIdentifier(user!)}`
        : `creating it failed: ${reason}`;
    throw new DatabaseCreationError(`database "${database}" does not exist on ${where} and ${advice}`, { cause: error });
  }
}

/**
 * Creates `folder` and the missing folders above it, one level at a time: Node's recursive mkdir
 * never returns for some impossible paths (under /proc), and one line naming the folder that could
 * not be made says more than ENOENT.
 */
function createMissingFolders(folder: string): void {
  const missing: string[] = [];
  for (let current = folder; !existsSync(current); current = path.dirname(current)) {
    missing.unshift(current);
    if (path.dirname(current) === current) break;
  }
  for (const created of missing) {
    try {
      mkdirSync(created);
    } catch (error) {
      if ((error as { code?: unknown }).code === "EEXIST") continue; // another process made it meanwhile
      throw new DatabaseCreationError(`cannot create the folder ${created} for the SQLite database: ${(error as Error).message}`, { cause: error });
    }
  }
}

/** The admin commands' rule: the database must exist already (`serve` or `migrate` creates it). */
export async function requireExistingDatabase(databaseUrl: string, settings: PostgresSettings): Promise<void> {
  const where = redactDatabaseUrl(databaseUrl);
  if (providerOf(databaseUrl) === "sqlite") {
    const file = sqliteFilePath(databaseUrl);
    if (!existsSync(file)) throw new DatabaseCreationError(`database ${where} does not exist (${file}); check the URL, or create it with \`toolgate migrate\``);
    return;
  }
  if ((await connectsUnlessMissing(databaseUrl, settings)) !== "exists") {
    throw new DatabaseCreationError(`database ${where} does not exist; check the URL, or create it with \`toolgate migrate\``);
  }
}

/**
 * "exists" when a connection to the database succeeds; the (closed) client, which names the
 * database, its role and server, when the server reports the database missing. Any other failure
 * to connect is rethrown as it came.
 */
async function connectsUnlessMissing(databaseUrl: string, settings: PostgresSettings): Promise<"exists" | pg.Client> {
  const target = new pg.Client(clientConfig(databaseUrl, settings));
  target.on("error", () => {});
  try {
    await target.connect();
    return "exists";
  } catch (error) {
    if (sqlState(error) !== MISSING_DATABASE) throw error;
    return target;
  } finally {
    await target.end().catch(() => {});
  }
}

async function onMaintenanceDatabase(databaseUrl: string, settings: PostgresSettings, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  for (const [index, name] of MAINTENANCE_DATABASES.entries()) {
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    const client = new pg.Client(clientConfig(url.toString(), settings));
    client.on("error", () => {});
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => {});
      if (sqlState(error) === MISSING_DATABASE && index < MAINTENANCE_DATABASES.length - 1) continue;
      throw error;
    }
    try {
      await work(client);
      return;
    } finally {
      await client.end().catch(() => {});
    }
  }
}

function clientConfig(databaseUrl: string, settings: PostgresSettings): pg.ClientConfig {
  const { connectionString, connectionTimeoutMillis } = postgresClientConfig(databaseUrl, settings);
  return { connectionString, connectionTimeoutMillis };
}

const sqlState = (error: unknown) => (error as { code?: unknown } | null)?.code;
