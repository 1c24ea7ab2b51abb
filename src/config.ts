// Reads and validates toolgate's configuration from environment variables, once, at start.
import { z } from "zod";
import type { PostgresSettings } from "./db/connection.js";
import { providerOf } from "./db/database-url.js";
import { MAX_TOKEN_CACHE_MS } from "./domain/token-cache.js";
import { DEFAULT_MAX_SUBSCRIPTIONS_PER_TOKEN } from "./graphql/live-events/subscription-slots.js";
import type { RateLimitConfig } from "./http/api/rate-limit.js";

export type { RateLimitConfig };

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], {
    error: "must be one of true, false, 1, 0, yes, no, on, off",
  })
  .transform((value) => ["true", "1", "yes", "on"].includes(value));

const requestsPerSecond = z.coerce.number({ error: "must be a number" }).min(0, "must be 0 (off) or more requests per second");
const burstSize = z.coerce.number({ error: "must be a number" }).int("must be an integer").min(1, "must be at least 1");

/**
 * MiB of stored definition texts a process keeps when TOOLGATE_DEFINITION_CACHE_MB is not set. A text
 * missed on PostgreSQL costs a round trip and decoding; on SQLite a local read, which more memory did
 * not make cheaper (docs/performance.md, "Switches").
 */
const DEFAULT_DEFINITION_CACHE_MB = { postgresql: 32, sqlite: 24 } as const;

/** Also read on its own, before anything else loads (src/heap-growth.ts). */
export const heapGrowthPercent = z.coerce
  .number({ error: "must be a number" })
  .int("must be an integer")
  .min(0, "must be 0 (V8's own heuristic) or more")
  .max(1000)
  .default(35);

const environmentSchema = z.object({
  TOOLGATE_DATABASE_URL: z
    .string()
    .refine((url) => /^(file:|postgres(ql)?:\/\/)/.test(url), "must start with file: or postgres:// (or postgresql://)")
    .default("file:./data/toolgate.db"),
  PORT: z.coerce
    .number({ error: (issue) => (issue.code === "invalid_type" ? "must be a number" : undefined) })
    .int("must be an integer")
    .min(0, "out of range (0–65535; 0 picks a free port)")
    .max(65535, "out of range (0–65535; 0 picks a free port)")
    .default(4000),
  HOST: z.string().min(1).default("127.0.0.1"),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  TOOLGATE_ADMIN_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  TOOLGATE_INTROSPECTION: booleanFlag.optional(),
  TOOLGATE_DEMO: booleanFlag.default(false),
  NODE_ENV: z.string().default("development"),
  TOOLGATE_RATE_LIMIT_PER_TOKEN: requestsPerSecond.default(500),
  TOOLGATE_RATE_LIMIT_PER_TOKEN_BURST: burstSize.default(1000),
  TOOLGATE_RATE_LIMIT_ANONYMOUS: requestsPerSecond.default(50),
  TOOLGATE_RATE_LIMIT_ANONYMOUS_BURST: burstSize.default(200),
  TOOLGATE_TRUST_PROXY: booleanFlag.default(false),
  TOOLGATE_DB_CONNECT_TIMEOUT_MS: milliseconds(5000),
  TOOLGATE_DB_STATEMENT_TIMEOUT_MS: milliseconds(15_000),
  TOOLGATE_DB_PREPARED_STATEMENTS: booleanFlag.default(true),
  TOOLGATE_DB_POOL_SIZE: z.coerce.number({ error: "must be a number" }).int("must be an integer").min(1, "must be at least 1").max(1000).default(10),
  TOOLGATE_SHUTDOWN_GRACE_MS: milliseconds(10_000),
  TOOLGATE_TOKEN_CACHE_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be an integer")
    .min(0, "must be 0 (off) or more")
    .max(MAX_TOKEN_CACHE_MS, `must be at most ${MAX_TOKEN_CACHE_MS} (the bound on noticing a revocation made through another replica)`)
    .default(MAX_TOKEN_CACHE_MS),
  TOOLGATE_READ_CACHE_MB: z.coerce.number({ error: "must be a number of MiB" }).min(0, "must be 0 (off) or more").max(4096, "must be at most 4096").default(8),
  TOOLGATE_DEFINITION_CACHE_MB: z.coerce
    .number({ error: "must be a number of MiB" })
    .min(0, "must be 0 (off) or more")
    .max(4096, "must be at most 4096")
    .optional(),
  TOOLGATE_HEAP_GROWTH_PERCENT: heapGrowthPercent,
  // Operability (docs/deploy.md): /metrics, CORS.
  TOOLGATE_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  TOOLGATE_METRICS_PORT: z.coerce.number({ error: "must be a number" }).int("must be an integer").min(0).max(65535, "out of range (0-65535)").optional(),
  TOOLGATE_CORS_ORIGINS: z
    .string()
    .transform((list) =>
      list
        .split(",")
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ""),
    )
    .pipe(z.array(z.string().refine(isCorsOrigin, "each entry must be * or an origin such as https://app.example.com (scheme, host, optional port; no path)")))
    .default([]),
  TOOLGATE_MAX_SUBSCRIPTIONS_PER_TOKEN: z.coerce
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(1_000_000)
    .default(DEFAULT_MAX_SUBSCRIPTIONS_PER_TOKEN),
  TOOLGATE_WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .transform((list) =>
      list
        .split(",")
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== ""),
    )
    .pipe(z.array(z.string().regex(/^[a-z0-9.:[\]-]+$/, "each entry must be a host name or an IP address, without scheme or port")))
    .default([]),
  TOOLGATE_WEBHOOK_TIMEOUT_MS: milliseconds(10_000),
  TOOLGATE_WEBHOOK_FIRST_RETRY_MS: milliseconds(10_000),
  TOOLGATE_WEBHOOK_MAX_FAILURES: z.coerce.number({ error: "must be a number" }).int("must be an integer").min(1, "must be at least 1").max(100).default(15),
  TOOLGATE_WEBHOOK_POLL_MS: milliseconds(2_000),
  TOOLGATE_WEBHOOK_CONCURRENCY: z.coerce
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(0, "must be 0 (this replica sends no webhooks) or more")
    .max(256)
    .default(8),
  TOOLGATE_EVENT_RETENTION_DAYS: z.coerce
    .number({ error: "must be a number of days" })
    .int("must be an integer")
    .min(1, "must be at least 1 (unset keeps every event)")
    .optional(),
});

function isCorsOrigin(entry: string): boolean {
  if (entry === "*") return true;
  try {
    const url = new URL(entry);
    return /^https?:$/.test(url.protocol) && url.origin === entry;
  } catch {
    return false;
  }
}

function milliseconds(fallback: number) {
  return z.coerce.number({ error: "must be a number of milliseconds" }).int("must be an integer").min(1, "must be at least 1").max(3_600_000).default(fallback);
}

export interface Config {
  databaseUrl: string;
  port: number;
  host: string;
  logLevel: (typeof LOG_LEVELS)[number];
  adminToken: string | undefined;
  introspection: boolean;
  demo: boolean;
  production: boolean;
  rateLimit: RateLimitConfig;
  /** Connection timeout, statement timeout and pool size (PostgreSQL only). */
  postgres: PostgresSettings;
  /** After SIGTERM, how long in-flight requests may take before their connections are cut. */
  shutdownGraceMs: number;
  /** How long a looked-up API token is trusted before it is read again (0: never cached). */
  tokenCacheMs: number;
  /** Memory for answers to repeated reads, in bytes; 0 turns the read cache off (src/http/api/read-cache.ts). */
  readCacheBytes: number;
  /** Memory for stored definition texts read before, in bytes; 0 reads them for every answer (src/graphql/stored-definitions.ts). */
  definitionCacheBytes: number;
  /** How far V8's heap may grow past what survived the last full GC, in percent; 0 leaves V8's heuristic (applied by the launcher, src/heap-growth.ts). */
  heapGrowthPercent: number;
  /** Change events older than this many days are deleted (hourly); undefined keeps every event. */
  eventRetentionDays: number | undefined;
  /** Live subscriptions one API token may hold open at once, per process (LIMIT_EXCEEDED past it). */
  maxSubscriptionsPerToken: number;
  metrics: MetricsConfig;
  webhooks: WebhookConfig;
  /** Origins allowed to call /graphql and /v1 from a browser (`*`: any); empty: no CORS headers. */
  corsOrigins: readonly string[];
}

/** How webhooks are sent (docs/webhooks.md). */
export interface WebhookConfig {
  /** Hosts that may be http and resolve to private addresses (internal receivers). */
  allowedHosts: readonly string[];
  /** The most one request may take, connecting and reading the answer included. */
  timeoutMs: number;
  /** The wait after the first failure; each further one waits 3 times longer (capped), with jitter. */
  firstRetryMs: number;
  /** Failed attempts in a row that disable a webhook. */
  maxFailures: number;
  /** How often each replica looks for due retries without a change notice. */
  pollMs: number;
  /** Webhooks one replica sends to at once; 0: this replica sends none (others do). */
  concurrency: number;
}

/** Where /metrics is served and what it asks for (docs/deploy.md). */
interface MetricsConfig {
  /** When set, /metrics requires `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** When set, /metrics is served on this port only, not on the main one (0: any free port). */
  port: number | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const values = parsed.data;
  const production = values.NODE_ENV === "production";
  return {
    databaseUrl: values.TOOLGATE_DATABASE_URL,
    port: values.PORT,
    host: values.HOST,
    logLevel: values.LOG_LEVEL,
    adminToken: values.TOOLGATE_ADMIN_TOKEN,
    introspection: values.TOOLGATE_INTROSPECTION ?? !production,
    demo: values.TOOLGATE_DEMO,
    production,
    rateLimit: {
      perToken: { perSecond: values.TOOLGATE_RATE_LIMIT_PER_TOKEN, burst: values.TOOLGATE_RATE_LIMIT_PER_TOKEN_BURST },
      anonymous: { perSecond: values.TOOLGATE_RATE_LIMIT_ANONYMOUS, burst: values.TOOLGATE_RATE_LIMIT_ANONYMOUS_BURST },
      trustProxy: values.TOOLGATE_TRUST_PROXY,
    },
    postgres: {
      connectTimeoutMs: values.TOOLGATE_DB_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: values.TOOLGATE_DB_STATEMENT_TIMEOUT_MS,
      poolSize: values.TOOLGATE_DB_POOL_SIZE,
      preparedStatements: values.TOOLGATE_DB_PREPARED_STATEMENTS,
    },
    shutdownGraceMs: values.TOOLGATE_SHUTDOWN_GRACE_MS,
    tokenCacheMs: values.TOOLGATE_TOKEN_CACHE_MS,
    readCacheBytes: Math.round(values.TOOLGATE_READ_CACHE_MB * 1024 * 1024),
    definitionCacheBytes: Math.round(
      (values.TOOLGATE_DEFINITION_CACHE_MB ?? DEFAULT_DEFINITION_CACHE_MB[providerOf(values.TOOLGATE_DATABASE_URL)]) * 1024 * 1024,
    ),
    heapGrowthPercent: values.TOOLGATE_HEAP_GROWTH_PERCENT,
    eventRetentionDays: values.TOOLGATE_EVENT_RETENTION_DAYS,
    maxSubscriptionsPerToken: values.TOOLGATE_MAX_SUBSCRIPTIONS_PER_TOKEN,
    metrics: { token: values.TOOLGATE_METRICS_TOKEN, port: values.TOOLGATE_METRICS_PORT },
    webhooks: {
      allowedHosts: values.TOOLGATE_WEBHOOK_ALLOWED_HOSTS,
      timeoutMs: values.TOOLGATE_WEBHOOK_TIMEOUT_MS,
      firstRetryMs: values.TOOLGATE_WEBHOOK_FIRST_RETRY_MS,
      maxFailures: values.TOOLGATE_WEBHOOK_MAX_FAILURES,
      pollMs: values.TOOLGATE_WEBHOOK_POLL_MS,
      concurrency: values.TOOLGATE_WEBHOOK_CONCURRENCY,
    },
    corsOrigins: values.TOOLGATE_CORS_ORIGINS,
    ...overrides,
  };
}
