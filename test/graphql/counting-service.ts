// A real toolgate (same schema, routes and HTTP stack as startService) whose database reports every
// SQL statement it sends, so tests can prove that nested reads cost a constant number of queries.
import { startChangeFeed } from "../../src/db/change-feed.js";
import { openDatabase } from "../../src/db/client.js";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { bootstrapAdmin } from "../../src/domain/accounts.js";
import { buildSchema } from "../../src/graphql/schema.js";
import { createApp } from "../../src/http/app.js";
import { createLogger } from "../../src/http/ops/logger.js";
import { REST_ROUTES } from "../../src/http/rest/routes.js";
import { listen } from "../../src/http/server/listen.js";
import { createMigratedDatabase, type TestService } from "../helpers/service.js";

export interface CountingService extends TestService {
  /** SQL statements sent while `work` ran. Run one request at a time for a meaningful count. */
  countQueries(work: () => Promise<unknown>): Promise<{ count: number; statements: string[] }>;
}

/** `changeFeed`: listen for committed events as the service does (on PostgreSQL, LISTEN on a connection of its own), for live subscriptions. */
export async function startCountingService(
  provider: DatabaseProvider,
  options: { changeFeed?: boolean; definitionCacheBytes?: number } = {},
): Promise<CountingService> {
  const scratch = await createMigratedDatabase(provider);
  let statements: string[] | undefined;
  const db = await openDatabase(scratch.url, { onQuery: (sql) => statements?.push(sql) });
  const adminToken = `tg_test_admin_${Math.random().toString(36).slice(2)}_${"x".repeat(24)}`;
  await bootstrapAdmin(db, adminToken);
  const logger = createLogger("silent");
  const feed = options.changeFeed ? await startChangeFeed(db, scratch.url, logger) : undefined;
  const app = createApp({
    db,
    schema: buildSchema(),
    routes: REST_ROUTES,
    logger,
    introspection: true,
    isReady: () => true,
    definitionCacheBytes: options.definitionCacheBytes ?? 16 * 1024 * 1024,
  });
  const server = await listen(app, 0, "127.0.0.1");
  const stop = async () => {
    await feed?.close();
    await server.close();
    await db.$disconnect();
  };
  return {
    url: server.url,
    port: server.port,
    metricsUrl: `${server.url}/metrics`, // not served: createApp without metrics
    db,
    logger,
    provider,
    databaseUrl: scratch.url,
    adminToken,
    demoTokens: undefined,
    stop,
    stopAndDrop: async () => {
      await stop();
      await scratch.drop();
    },
    countQueries: async (work) => {
      statements = [];
      try {
        await work();
        return { count: statements.length, statements };
      } finally {
        statements = undefined;
      }
    },
  };
}
