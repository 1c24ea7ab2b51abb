// The composition root: configuration → database (migrated) → bootstrap → schema → HTTP server.
import type { Logger } from "pino";
import type { Config } from "./config.js";
import { openDatabase, type Database } from "./db/client.js";
import { migrateDatabase } from "./db/migrations.js";
import { bootstrapAdmin } from "./domain/accounts.js";
import { buildSchema } from "./graphql/schema.js";
import { createApp } from "./http/app.js";
import { createLogger } from "./http/logger.js";
import { REST_ROUTES } from "./http/rest/routes.js";
import { listen } from "./http/server.js";
import type { DemoTokens } from "./demo/seed.js";

export interface Service {
  url: string;
  port: number;
  db: Database;
  logger: Logger;
  /** The bootstrap admin's token when it is known to this process (configured or generated now). */
  adminToken: string | undefined;
  /** Demo accounts' tokens, in demo mode. */
  demoTokens: DemoTokens | undefined;
  /** Graceful stop: refuse new connections, finish in-flight requests, close the database. */
  stop(): Promise<void>;
}

export interface ServiceHooks {
  /** Runs after bootstrap, before listening (the demo seed). */
  afterBootstrap?(db: Database, logger: Logger): Promise<{ demoTokens?: DemoTokens | undefined } | void>;
}

export async function startService(config: Config, hooks: ServiceHooks = {}): Promise<Service> {
  const logger = createLogger(config.logLevel);
  const applied = await migrateDatabase(config.databaseUrl);
  if (applied.length > 0) logger.info({ migrations: applied }, "applied database migrations");
  const db = await openDatabase(config.databaseUrl);
  const { generatedSecret } = await bootstrapAdmin(db, config.adminToken);
  const adminToken = config.adminToken ?? generatedSecret;
  const seeded = (await hooks.afterBootstrap?.(db, logger)) ?? {};
  let ready = true;
  const app = createApp({
    db,
    schema: buildSchema(),
    routes: REST_ROUTES,
    logger,
    introspection: config.introspection,
    rateLimit: config.rateLimit,
    // A public page may hold a demo account's token, never the admin's: without demo accounts, no token.
    graphiqlToken: config.demo ? seeded.demoTokens?.owner : undefined,
    isReady: () => ready,
  });
  const server = await listen(app, config.port, config.host);
  return {
    url: server.url,
    port: server.port,
    db,
    logger,
    adminToken,
    demoTokens: seeded.demoTokens,
    stop: async () => {
      ready = false;
      await server.close();
      await db.$disconnect();
    },
  };
}
