// The commands behind `toolgate <command>`: serve, migrate, seed and small admin commands that print JSON.
import type { parseArgs } from "node:util";
import { ConfigError, loadConfig, type Config } from "../config.js";
import { openDatabase, type Database } from "../db/client.js";
import { createDatabaseIfMissing, requireExistingDatabase } from "../db/create-database.js";
import { migrateDatabase } from "../db/migrations.js";
import { createAccount, issueToken, revokeToken } from "../domain/accounts.js";
import { DomainError } from "../domain/errors.js";
import { createEnvironment, shareEnvironment } from "../domain/environments.js";
import type { LoadedDemo } from "../demo/load.js";
import { asStartupError, StartupError } from "../startup-error.js";
import { findBootstrapAdmin, listAccounts, listEnvironments, listTokens } from "./lists.js";
import {
  accountOptions,
  adminTokenOptions,
  environmentOptions,
  InvalidOptionsError,
  listOptions,
  revokeOptions,
  shareOptions,
  tokenOptions,
} from "./options.js";
import { formatTable, type Cell } from "./table.js";
import type { CliIo, CliOutcome } from "./run.js";
import type { OPTIONS } from "./usage.js";
import { tokenView } from "./views.js";

export type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

/** The flags `serve` and friends take for configuration variables; a bad value is named by what the user typed. */
const FLAG_OF_VARIABLE = { PORT: "port", HOST: "host", TOOLGATE_DATABASE_URL: "database-url", LOG_LEVEL: "log-level" } as const;

function configFrom(options: Options, environment: NodeJS.ProcessEnv): Config {
  const env = { ...environment };
  for (const [variable, flag] of Object.entries(FLAG_OF_VARIABLE)) {
    if (options[flag] !== undefined) env[variable] = options[flag];
  }
  if (options.demo) env.TOOLGATE_DEMO = "true";
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new InvalidOptionsError(error.problems.map((problem) => fromFlag(problem, options) ?? problem));
  }
}

function fromFlag(problem: string, options: Options): string | undefined {
  const [variable, flag] = Object.entries(FLAG_OF_VARIABLE).find(([variable]) => problem.startsWith(`${variable}: `)) ?? [];
  if (!variable || !flag || options[flag] === undefined) return undefined;
  return `--${flag}: ${problem.slice(variable.length + 2)}`;
}

class UsageError extends Error {}

/** Creates the database when it is missing (PostgreSQL) and applies pending migrations. */
async function prepareDatabase(config: Config): Promise<{ createdDatabase: string | undefined; applied: string[] }> {
  try {
    const createdDatabase = await createDatabaseIfMissing(config.databaseUrl, config.postgres);
    return { createdDatabase, applied: await migrateDatabase(config.databaseUrl, config.postgres) };
  } catch (error) {
    throw asStartupError(config.databaseUrl, error);
  }
}

/** Runs an admin command on an existing database (migrated first when migrations are pending). */
async function withDatabase<T>(config: Config, work: (db: Database) => Promise<T>): Promise<T> {
  try {
    await requireExistingDatabase(config.databaseUrl, config.postgres);
    await migrateDatabase(config.databaseUrl, config.postgres);
  } catch (error) {
    throw asStartupError(config.databaseUrl, error);
  }
  const db = await openDatabase(config.databaseUrl, { postgres: config.postgres }).catch((error: unknown) => {
    throw asStartupError(config.databaseUrl, error);
  });
  try {
    return await work(db);
  } finally {
    await db.$disconnect();
  }
}

/** Prints `value` as JSON: what the commands answer, for people and scripts alike. */
const printer = (io: CliIo) => (value: unknown) => io.out(JSON.stringify(value, null, 2));

/** List commands: a table for people, `--json` for scripts. */
function printRows<Row extends { [Column in Columns]: Cell }, Columns extends keyof Row & string>(
  io: CliIo,
  options: Options,
  rows: Row[],
  columns: Columns[],
): void {
  if (options.json) printer(io)(rows);
  else io.out(formatTable(rows, columns));
}

async function serve(config: Config): Promise<void> {
  // Loaded here, not up front: the server (GraphQL schema, Yoga, HTTP) costs a second of start-up
  // that the small admin commands do not need.
  const [{ startService }, { loadDemo }, { printBanner }] = await Promise.all([import("../service.js"), import("../demo/load.js"), import("./banner.js")]);
  let demo: LoadedDemo | undefined;
  const service = await startService(config, {
    afterBootstrap: async (db) => {
      if (!config.demo) return;
      demo = await loadDemo(db);
      return demo;
    },
  });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.logger.info({ signal, graceMs: config.shutdownGraceMs }, "shutting down: finishing in-flight requests");
    try {
      await service.stop();
      service.logger.info("stopped");
    } catch (error) {
      service.logger.error({ err: error }, "error while stopping");
    }
    process.exit(0);
  };
  // Before the banner: whoever waits for it (an orchestrator, a test) may signal at once.
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  printBanner(service, config, demo?.shellVariables);
}

/** Runs the command `name` (one of usage.ts's COMMANDS); failures are reported on `io` and become the exit status. */
export async function runCommand(name: string, options: Options, io: CliIo): Promise<CliOutcome> {
  try {
    if (name === "serve") {
      await serve(configFrom(options, io.env));
      return "serving";
    }
    await runAdminCommand(name, options, io);
    return 0;
  } catch (error) {
    return reportFailure(error, io);
  }
}

async function runAdminCommand(name: string, options: Options, io: CliIo): Promise<void> {
  const config = configFrom(options, io.env);
  const print = printer(io);
  switch (name) {
    case "migrate": {
      const { createdDatabase, applied } = await prepareDatabase(config);
      return print(createdDatabase ? { createdDatabase, applied } : { applied });
    }
    case "backup": {
      const { backupDatabase } = await import("./backup.js");
      return print(await backupDatabase(config.databaseUrl, options.to));
    }
    case "seed": {
      if (!options.demo) throw new UsageError("--demo: required (the demo data is the one data set seed loads)");
      const { seedDemo } = await import("../demo/seed.js");
      return print(await withDatabase(config, seedDemo));
    }
    // Options are checked before the database is opened or migrated.
    case "account create": {
      const input = accountOptions(options);
      return print(await withDatabase(config, (db) => createAccount(db, "system", input)));
    }
    case "environment create": {
      const input = environmentOptions(options);
      return print(await withDatabase(config, (db) => createEnvironment(db, "system", input)));
    }
    case "environment share": {
      const input = shareOptions(options);
      return print(await withDatabase(config, (db) => shareEnvironment(db, "system", input)));
    }
    case "account list":
      return printRows(io, options, await withDatabase(config, listAccounts), ["id", "name", "email", "plan", "admin", "createdAt"]);
    case "environment list": {
      const { accountId } = listOptions(options);
      return printRows(io, options, await withDatabase(config, (db) => listEnvironments(db, accountId)), [
        "id",
        "ownerAccountId",
        "name",
        "versionCheck",
        "createdAt",
      ]);
    }
    case "token list": {
      const { accountId } = listOptions(options);
      const tokens = await withDatabase(config, (db) => listTokens(db, accountId));
      return printRows(io, options, tokens, ["id", "accountId", "name", "createdAt", "expiresAt", "revokedAt"]);
    }
    case "token create": {
      if (options.admin) {
        const input = adminTokenOptions(options);
        return print(await withDatabase(config, (db) => issueAdminToken(db, input)));
      }
      const input = tokenOptions(options);
      return print(
        await withDatabase(config, async (db) => {
          const { token, secret } = await issueToken(db, "system", input);
          return { ...tokenView(token), secret };
        }),
      );
    }
    case "token revoke": {
      const { id } = revokeOptions(options);
      return print(tokenView(await withDatabase(config, (db) => revokeToken(db, "system", id))));
    }
    default:
      throw new Error(`no code for the command ${name}`);
  }
}

/** A new token for the bootstrap admin, for an operator who lost the one printed at first start. */
async function issueAdminToken(db: Database, input: { name: string; expiresAt?: Date | undefined }) {
  const admin = await findBootstrapAdmin(db);
  if (!admin) throw new UsageError("the database has no admin account yet: start toolgate once (serve or migrate creates none; serve does)");
  const { token, secret } = await issueToken(db, "system", { accountId: admin.id, ...input });
  return { ...tokenView(token), secret };
}

/** Prints why a command failed, in one line where possible; returns the matching exit status. */
function reportFailure(error: unknown, io: CliIo): number {
  if (error instanceof InvalidOptionsError) {
    io.err(error.problems.join("\n"));
    return 2;
  }
  if (error instanceof StartupError || error instanceof UsageError) {
    io.err(error.message);
    return 2;
  }
  if (error instanceof DomainError) {
    io.err(JSON.stringify({ code: error.code, errors: error.problems }));
    return 1;
  }
  const { code, address, port } = (error ?? {}) as { code?: string; address?: string; port?: number };
  if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
    const why = { EADDRINUSE: "the address is already in use", EACCES: "permission denied", EADDRNOTAVAIL: "no such address on this host" }[code];
    io.err(`cannot listen on ${address}:${port}: ${why} (choose another with PORT or --port, HOST or --host)`);
    return 2;
  }
  // A bug, not something the operator typed: still one line; LOG_LEVEL=debug shows the stack.
  const debug = io.env.LOG_LEVEL === "debug" || io.env.LOG_LEVEL === "trace";
  io.err(
    debug
      ? String((error as Error)?.stack ?? error)
      : `unexpected error: ${String((error as Error)?.message ?? error).split("\n")[0]} (LOG_LEVEL=debug prints the stack)`,
  );
  return 1;
}
