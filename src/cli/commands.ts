// The commands behind `toolgate <command>`: serve, migrate, seed and small admin commands that print JSON.
import type { parseArgs } from "node:util";
import { ConfigError, loadConfig, type Config } from "../config.js";
import { openDatabase, type Database } from "../db/client.js";
import { migrateDatabase } from "../db/migrations.js";
import { createAccount, issueToken, revokeToken } from "../domain/accounts.js";
import { DomainError } from "../domain/errors.js";
import { createEnvironment, shareEnvironment } from "../domain/environments.js";
import { loadDemo } from "../demo/load.js";
import { seedDemo } from "../demo/seed.js";
import { startService } from "../service.js";
import { asStartupError, StartupError } from "../startup-error.js";
import { printBanner } from "./banner.js";
import { accountOptions, environmentOptions, InvalidOptionsError, revokeOptions, shareOptions, tokenOptions } from "./options.js";
import { OPTIONS, USAGE } from "./usage.js";
import { tokenView } from "./views.js";

export type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

function configFrom(options: Options): Config {
  const env = { ...process.env };
  if (options.port !== undefined) env.PORT = options.port;
  if (options.host !== undefined) env.HOST = options.host;
  if (options["database-url"] !== undefined) env.TOOLGATE_DATABASE_URL = options["database-url"];
  if (options["log-level"] !== undefined) env.LOG_LEVEL = options["log-level"];
  if (options.demo) env.TOOLGATE_DEMO = "true";
  return loadConfig(env);
}

class UsageError extends Error {}

async function withDatabase<T>(config: Config, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await migrateDatabase(config.databaseUrl, config.postgres)
    .then(() => openDatabase(config.databaseUrl, { postgres: config.postgres }))
    .catch((error: unknown) => {
      throw asStartupError(config.databaseUrl, error);
    });
  try {
    return await work(db);
  } finally {
    await db.$disconnect();
  }
}

const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

async function serve(config: Config): Promise<void> {
  const service = await startService(config, {
    afterBootstrap: async (db) => {
      if (!config.demo) return;
      return loadDemo(db);
    },
  });
  printBanner(service, config);
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
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

export async function runCommand(positionals: string[], options: Options): Promise<void> {
  const [command, subcommand] = positionals;
  const config = configFrom(options);
  switch (`${command}${subcommand ? ` ${subcommand}` : ""}`) {
    case "serve":
      return serve(config);
    case "migrate": {
      const applied = await migrateDatabase(config.databaseUrl, config.postgres).catch((error: unknown) => {
        throw asStartupError(config.databaseUrl, error);
      });
      return print({ applied });
    }
    case "seed": {
      if (!options.demo) throw new UsageError("seed needs --demo (the only data set)");
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
    case "token create": {
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
      throw new UsageError(`unknown command: ${positionals.join(" ")}`);
  }
}

/** Prints why a command failed, in one line where possible, and exits with the matching status. */
export function exitWithFailure(error: unknown): never {
  if (error instanceof InvalidOptionsError) {
    console.error(error.problems.join("\n"));
    process.exit(2);
  }
  if (error instanceof StartupError) {
    console.error(error.message);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof UsageError) {
    console.error(error.message);
    if (error instanceof UsageError) console.error(`\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof DomainError) {
    console.error(JSON.stringify({ code: error.code, errors: error.problems }));
    process.exit(1);
  }
  if ((error as { code?: string }).code === "EADDRINUSE") {
    const { address, port } = error as { address?: string; port?: number };
    console.error(`cannot listen on ${address}:${port}: the address is already in use (choose another with PORT or --port)`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
}
