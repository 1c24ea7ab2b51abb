// The composition root: configuration → the address checked → database (migrated) → bootstrap →
// schema → HTTP server.
import type { LookupFunction } from "node:net";
import type { DestinationStream, Logger } from "pino";
import type { Config } from "./config.js";
import { openDatabase, poolUsageOf, type Database } from "./db/client.js";
import { providerOf } from "./db/database-url.js";
import { createDatabaseIfMissing } from "./db/create-database.js";
import { migrateDatabase } from "./db/migrations.js";
import { startChangeFeed } from "./db/change-feed.js";
import { startEventRetention } from "./domain/event-retention.js";
import { bootstrapAdmin } from "./domain/accounts.js";
import { buildSchema } from "./graphql/schema.js";
import { startLiveEvents } from "./graphql/live-events/live-events.js";
import { createApp } from "./http/app.js";
import { createLogger } from "./http/ops/logger.js";
import { REST_ROUTES } from "./http/rest/routes.js";
import { listenForMetrics, metricsHandler } from "./http/ops/metrics-endpoint.js";
import { checkCanListen } from "./http/server/port-check.js";
import { listen, type RunningServer } from "./http/server/listen.js";
import { createServiceMetrics, type ServiceMetrics } from "./metrics/service-metrics.js";
import { asStartupError } from "./startup-error.js";
import { startWebhookWorker } from "./webhooks/delivery-worker.js";
import { retryPolicy } from "./webhooks/retry-policy.js";
import { createWebhookSender } from "./webhooks/sender.js";
import { webhookUrlPolicy } from "./webhooks/url-policy.js";
import type { DemoTokens } from "./demo/seed.js";
import type { StarterVariables } from "./http/pages/graphiql.js";

export interface Service {
  url: string;
  port: number;
  /** Where /metrics is served: the main URL's, or its own port's with TOOLGATE_METRICS_PORT. */
  metricsUrl: string;
  db: Database;
  logger: Logger;
  /** The bootstrap admin's token when it is known to this process (configured or generated now). */
  adminToken: string | undefined;
  /** Demo accounts' tokens, in demo mode. */
  demoTokens: DemoTokens | undefined;
  /**
   * Graceful stop: /readyz turns 503, new connections are refused, in-flight requests are answered
   * (within the configured grace period; connections still open after it are cut), the database is closed.
   */
  stop(): Promise<void>;
}

export interface ServiceHooks {
  /** Runs after bootstrap, before listening (the demo seed): the demo's tokens and the ids GraphiQL is pre-filled with. */
  afterBootstrap?(db: Database, logger: Logger): Promise<{ demoTokens?: DemoTokens | undefined; graphiqlVariables?: StarterVariables | undefined } | void>;
  /** Where log lines go; stdout when omitted. */
  logDestination?: DestinationStream | undefined;
  /** How webhook connections resolve host names; the system's DNS when omitted (tests resolve names to chosen addresses). */
  webhookLookup?: LookupFunction | undefined;
}

export async function startService(config: Config, hooks: ServiceHooks = {}): Promise<Service> {
  await checkCanListen(config.port, config.host);
  if (config.metrics.port !== undefined) await checkCanListen(config.metrics.port, config.host);
  const logger = createLogger(config.logLevel, hooks.logDestination);
  const metrics = createServiceMetrics(providerOf(config.databaseUrl));
  const { db, adminToken, registryId } = await openMigratedDatabase(config, logger, metrics).catch((error: unknown) => {
    throw asStartupError(config.databaseUrl, error);
  });
  if (poolUsageOf(db)) metrics.watchPool(() => poolUsageOf(db));
  const changeFeed = await startChangeFeed(db, config.databaseUrl, logger).catch(async (error: unknown) => {
    await db.$disconnect().catch(() => {});
    throw asStartupError(config.databaseUrl, error);
  });
  const liveEvents = startLiveEvents(db, changeFeed, { maxSubscriptionsPerToken: config.maxSubscriptionsPerToken });
  metrics.watchLiveSubscriptions(() => liveEvents.open());
  const stopEventRetention = startEventRetention(db, config.eventRetentionDays, logger);
  const webhooks = startWebhookWorker(
    db,
    changeFeed,
    {
      sender: createWebhookSender({
        connectTimeoutMs: Math.min(5_000, config.webhooks.timeoutMs),
        totalTimeoutMs: config.webhooks.timeoutMs,
        maxResponseBytes: 64 * 1024,
        allowedHosts: config.webhooks.allowedHosts,
        ...(hooks.webhookLookup ? { lookup: hooks.webhookLookup } : {}),
      }),
      retry: retryPolicy(config.webhooks.firstRetryMs, config.webhooks.maxFailures),
      // Longer than any request may take, so a lease outlives the request it covers.
      leaseMs: 2 * config.webhooks.timeoutMs + 1_000,
      pollMs: config.webhooks.pollMs,
      concurrency: config.webhooks.concurrency,
      onAttempt: metrics.observeWebhookAttempt,
    },
    logger,
  );
  const seeded = (await hooks.afterBootstrap?.(db, logger)) ?? {};
  let ready = true;
  const app = createApp({
    db,
    schema: buildSchema(),
    routes: REST_ROUTES,
    logger,
    introspection: config.introspection,
    rateLimit: config.rateLimit,
    graphiql: {
      // A public page may hold a demo account's token, never the admin's: without demo accounts, no token.
      token: config.demo ? seeded.demoTokens?.owner : undefined,
      variables: config.demo ? seeded.graphiqlVariables : undefined,
      storageScope: registryId,
    },
    isReady: () => ready,
    tokenCacheMs: config.tokenCacheMs,
    readCacheBytes: config.readCacheBytes,
    definitionCacheBytes: config.definitionCacheBytes,
    requestMetrics: metrics.requests,
    metricsEndpoint: config.metrics.port === undefined ? metricsHandler(metrics, config.metrics.token) : undefined,
    corsOrigins: config.corsOrigins,
    webhookPolicy: webhookUrlPolicy(config.webhooks.allowedHosts),
  });
  metrics.watchReadCache(() => app.readCacheStats());
  metrics.watchDefinitionCache(() => app.definitionCacheStats());
  const server = await listen(app, config.port, config.host);
  let metricsServer: RunningServer | undefined;
  if (config.metrics.port !== undefined) {
    metricsServer = await listenForMetrics(metrics, config.metrics.token, config.metrics.port, config.host).catch(async (error: unknown) => {
      await server.close(0);
      await db.$disconnect();
      throw error;
    });
  }
  return {
    url: server.url,
    port: server.port,
    metricsUrl: `${(metricsServer ?? server).url}/metrics`,
    db,
    logger,
    adminToken,
    demoTokens: seeded.demoTokens,
    stop: async () => {
      ready = false;
      // Live subscriptions end first, so their open responses do not hold the drain for its grace period.
      stopEventRetention();
      await webhooks.stop();
      await changeFeed.close();
      // Scrapes are cheap and stateless: the metrics port closes without a grace period.
      await metricsServer?.close(0);
      const { cut } = await server.close(config.shutdownGraceMs);
      if (cut > 0) logger.warn({ connections: cut, graceMs: config.shutdownGraceMs }, "grace period over: cut connections with unanswered requests");
      await db.$disconnect();
    },
  };
}

/** The database (created when missing), migrations, then the client, then the bootstrap admin. */
async function openMigratedDatabase(
  config: Config,
  logger: Logger,
  metrics: ServiceMetrics,
): Promise<{ db: Database; adminToken: string | undefined; registryId: string }> {
  const created = await createDatabaseIfMissing(config.databaseUrl, config.postgres);
  if (created) logger.info({ database: created }, "created the database");
  const applied = await migrateDatabase(config.databaseUrl, config.postgres);
  if (applied.length > 0) logger.info({ migrations: applied }, "applied database migrations");
  const db = await openDatabase(config.databaseUrl, { postgres: config.postgres, observeQuery: metrics.observeQuery });
  try {
    const { admin, generatedSecret } = await bootstrapAdmin(db, config.adminToken);
    // The bootstrap admin is the database's first account: its id names this registry (a new
    // database, after a reset or on another provider, is a new registry).
    return { db, adminToken: config.adminToken ?? generatedSecret, registryId: admin.id };
  } catch (error) {
    await db.$disconnect().catch(() => {});
    throw error;
  }
}
