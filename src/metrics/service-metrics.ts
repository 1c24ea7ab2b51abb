// Everything /metrics reports for one running service: its requests, its SQL statements, its
// PostgreSQL pool, and the process's own metrics (CPU, memory, event loop lag, GC) from prom-client.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { PoolUsage } from "../db/client.js";
import type { DatabaseProvider } from "../db/prisma-schemas.js";
import { STATEMENT_KINDS, type QueryObserver, type StatementKind } from "../db/query-timing.js";
import { createRequestMetrics, type RequestMetrics } from "./request-metrics.js";

/** Seconds; from a cached SQLite read (~0.1 ms) to the statement timeout. */
const DB_QUERY_DURATION_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15];

export type ReadCacheOutcome = "hit" | "miss" | "uncacheable";

interface MetricName {
  name: string;
  help: string;
}

/** A cache's lookups by outcome and the memory it holds. */
interface CacheStats<Outcome extends string> {
  lookups: Record<Outcome, number>;
  bytes: number;
}

/** What the read cache reports (src/http/api/read-cache.ts). */
export type ReadCacheStats = CacheStats<ReadCacheOutcome>;

/** What the definition cache did: digests found in memory (hit) or read from the database (miss), and the text it holds. */
export type DefinitionCacheStats = CacheStats<"hit" | "miss">;

export interface ServiceMetrics {
  requests: RequestMetrics;
  observeQuery: QueryObserver;
  /** Reports the pool's state at every scrape (PostgreSQL). */
  watchPool(read: () => PoolUsage | undefined): void;
  /** Reports the number of open live subscriptions at every scrape. */
  watchLiveSubscriptions(read: () => number): void;
  /** Counts a webhook attempt; a delivered one's lag is the time from its event to its delivery. */
  observeWebhookAttempt(outcome: "delivered" | "failed", lagSeconds: number | undefined): void;
  /** Reports the read cache's lookups and size at every scrape. */
  watchReadCache(read: () => ReadCacheStats): void;
  /** Reports the definition cache's lookups and size at every scrape. */
  watchDefinitionCache(read: () => DefinitionCacheStats): void;
  /** The exposition text. */
  scrape(): Promise<string>;
  contentType: string;
}

let processRegistry: Registry | undefined;

/** Process metrics belong to the process, not to a service: one registry, made once, serves every service in it. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    const spentBefore = process.cpuUsage();
    collectDefaultMetrics({ register: processRegistry });
    countCpuSpentBefore(processRegistry, spentBefore);
  }
  return processRegistry;
}

// prom-client's CPU counters start at zero when they are made, but Prometheus' process_cpu_* are the
// process's CPU since it started; a scrape soon after start would otherwise read 0 (CPU time moves in ticks).
function countCpuSpentBefore(registry: Registry, spent: NodeJS.CpuUsage): void {
  const add = (name: string, micros: number) => (registry.getSingleMetric(name) as Counter | undefined)?.inc(micros / 1e6);
  add("process_cpu_user_seconds_total", spent.user);
  add("process_cpu_system_seconds_total", spent.system);
  add("process_cpu_seconds_total", spent.user + spent.system);
}

export function createServiceMetrics(provider: DatabaseProvider): ServiceMetrics {
  const registry = new Registry();
  const requests = createRequestMetrics();
  for (const metric of requests.exported) registry.registerMetric(metric);

  const queries = new Histogram({
    name: "toolgate_db_query_duration_seconds",
    help: "SQL statement durations at the driver adapter, by provider and statement kind.",
    buckets: DB_QUERY_DURATION_BUCKETS,
    labelNames: ["provider", "statement"],
    registers: [registry],
  });
  // Every kind is reported from the start, at zero until a statement of it runs.
  const byKind = Object.fromEntries(STATEMENT_KINDS.map((statement) => [statement, queries.labels({ provider, statement })])) as Record<
    StatementKind,
    Histogram.Internal<"provider" | "statement">
  >;
  for (const statement of STATEMENT_KINDS) queries.zero({ provider, statement });

  const watchPool = (read: () => PoolUsage | undefined) => {
    const gauge = (name: string, help: string, value: (usage: PoolUsage) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const usage = read();
          if (usage) this.set(value(usage));
        },
      });
    gauge("toolgate_db_pool_connections", "Open PostgreSQL connections in the pool, idle or in use.", (usage) => usage.total);
    gauge("toolgate_db_pool_idle_connections", "Idle PostgreSQL connections in the pool.", (usage) => usage.idle);
    gauge("toolgate_db_pool_waiting_queries", "Queries waiting for a pool connection.", (usage) => usage.waiting);
    gauge("toolgate_db_pool_max_connections", "The pool's size (TOOLGATE_DB_POOL_SIZE).", (usage) => usage.max);
  };

  const watchLiveSubscriptions = (read: () => number) =>
    new Gauge({
      name: "toolgate_live_subscriptions",
      help: "Open live subscriptions (Subscription.environmentEvents streams).",
      registers: [registry],
      collect() {
        this.set(read());
      },
    });

  /** A cache's lookups by outcome and the memory it holds, both read from the cache at each scrape. */
  const watchCache = (lookups: MetricName, bytes: MetricName, read: () => CacheStats<string>) => {
    new Counter({
      ...lookups,
      labelNames: ["outcome"],
      registers: [registry],
      collect() {
        this.reset();
        for (const [outcome, count] of Object.entries(read().lookups)) this.inc({ outcome }, count);
      },
    });
    new Gauge({
      ...bytes,
      registers: [registry],
      collect() {
        this.set(read().bytes);
      },
    });
  };

  const watchReadCache = (read: () => ReadCacheStats) =>
    watchCache(
      {
        name: "toolgate_read_cache_lookups_total",
        help: "Reads by what the read cache did: hit (answered from memory, or shared with the same read already running at the same data version), miss (executed; kept when a query answered without errors), uncacheable (not looked up: a /v1 write, a GraphQL document opening with a mutation or subscription, an administrator, the cache off, the database unreachable).",
      },
      { name: "toolgate_read_cache_bytes", help: "Memory held by the read cache's answers, their bytes and keys (TOOLGATE_READ_CACHE_MB bounds it)." },
      read,
    );

  const watchDefinitionCache = (read: () => DefinitionCacheStats) =>
    watchCache(
      {
        name: "toolgate_definition_cache_lookups_total",
        help: "Stored definitions a read needed, by where they came from: hit (the text was in memory) or miss (read from the database, with the request's other misses in one statement).",
      },
      { name: "toolgate_definition_cache_bytes", help: "Stored definition text held in memory (TOOLGATE_DEFINITION_CACHE_MB bounds it)." },
      read,
    );

  const webhookAttempts = new Counter({
    name: "toolgate_webhook_deliveries_total",
    help: "Webhook requests sent by this replica, by outcome: delivered (2xx) or failed (no answer, refused address, timeout, other status).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  for (const outcome of ["delivered", "failed"]) webhookAttempts.inc({ outcome }, 0);
  const webhookLag = new Histogram({
    name: "toolgate_webhook_delivery_lag_seconds",
    help: "From a change event's commit to its delivery's 2xx answer (retries included).",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14400, 86400],
    registers: [registry],
  });

  return {
    requests,
    observeWebhookAttempt: (outcome, lagSeconds) => {
      webhookAttempts.inc({ outcome });
      if (lagSeconds !== undefined) webhookLag.observe(Math.max(0, lagSeconds));
    },
    observeQuery: (kind, seconds) => byKind[kind].observe(seconds),
    watchPool,
    watchLiveSubscriptions,
    watchReadCache,
    watchDefinitionCache,
    scrape: async () => `${await processMetrics().metrics()}\n${await registry.metrics()}`,
    contentType: registry.contentType,
  };
}
