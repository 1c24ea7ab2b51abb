// The fault-handling and memory settings: sane defaults, read from the environment, bad values reported.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

describe("database, shutdown and memory settings", () => {
  it("defaults to a 5 s connect timeout, a 15 s statement timeout, 10 connections, a 10 s grace period and 20% heap growth", () => {
    expect(loadConfig({})).toMatchObject({
      postgres: { connectTimeoutMs: 5000, statementTimeoutMs: 15_000, poolSize: 10, preparedStatements: true },
      shutdownGraceMs: 10_000,
      heapGrowthPercent: 35,
    });
  });

  it("reads TOOLGATE_DB_CONNECT_TIMEOUT_MS, TOOLGATE_DB_STATEMENT_TIMEOUT_MS, TOOLGATE_DB_POOL_SIZE, TOOLGATE_DB_PREPARED_STATEMENTS, TOOLGATE_SHUTDOWN_GRACE_MS and TOOLGATE_HEAP_GROWTH_PERCENT", () => {
    const config = loadConfig({
      TOOLGATE_DB_CONNECT_TIMEOUT_MS: "2000",
      TOOLGATE_DB_STATEMENT_TIMEOUT_MS: "30000",
      TOOLGATE_DB_POOL_SIZE: "25",
      TOOLGATE_DB_PREPARED_STATEMENTS: "false",
      TOOLGATE_SHUTDOWN_GRACE_MS: "20000",
      TOOLGATE_HEAP_GROWTH_PERCENT: "0",
    });
    expect(config).toMatchObject({
      postgres: { connectTimeoutMs: 2000, statementTimeoutMs: 30_000, poolSize: 25, preparedStatements: false },
      shutdownGraceMs: 20_000,
      heapGrowthPercent: 0,
    });
  });

  it("reports bad values", () => {
    let error: unknown;
    try {
      loadConfig({ TOOLGATE_DB_CONNECT_TIMEOUT_MS: "soon", TOOLGATE_DB_POOL_SIZE: "0", TOOLGATE_SHUTDOWN_GRACE_MS: "-1", TOOLGATE_HEAP_GROWTH_PERCENT: "-5" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^TOOLGATE_DB_CONNECT_TIMEOUT_MS: must be a number of milliseconds/),
        expect.stringMatching(/^TOOLGATE_DB_POOL_SIZE: must be at least 1/),
        expect.stringMatching(/^TOOLGATE_SHUTDOWN_GRACE_MS: must be at least 1/),
        expect.stringMatching(/^TOOLGATE_HEAP_GROWTH_PERCENT: must be 0 \(V8's own heuristic\) or more/),
      ]),
    );
  });
});

describe("definition cache setting", () => {
  it("defaults to 24 MiB on SQLite and 32 MiB on PostgreSQL, reads TOOLGATE_DEFINITION_CACHE_MB (0: off) and refuses a negative or non-numeric size", () => {
    const postgres = { TOOLGATE_DATABASE_URL: "postgres://toolgate@db.internal:5432/toolgate" };
    expect(loadConfig({}).definitionCacheBytes).toBe(24 * 1024 * 1024);
    expect(loadConfig({ TOOLGATE_DATABASE_URL: "file:./data/other.db" }).definitionCacheBytes).toBe(24 * 1024 * 1024);
    expect(loadConfig(postgres).definitionCacheBytes).toBe(32 * 1024 * 1024);
    expect(loadConfig({ ...postgres, TOOLGATE_DEFINITION_CACHE_MB: "16" }).definitionCacheBytes).toBe(16 * 1024 * 1024);
    expect(loadConfig({ TOOLGATE_DEFINITION_CACHE_MB: "48" }).definitionCacheBytes).toBe(48 * 1024 * 1024);
    expect(loadConfig({ TOOLGATE_DEFINITION_CACHE_MB: "0" }).definitionCacheBytes).toBe(0);
    expect(() => loadConfig({ TOOLGATE_DEFINITION_CACHE_MB: "-1" })).toThrow(/TOOLGATE_DEFINITION_CACHE_MB: must be 0 \(off\) or more/);
    expect(() => loadConfig({ TOOLGATE_DEFINITION_CACHE_MB: "lots" })).toThrow(/TOOLGATE_DEFINITION_CACHE_MB: must be a number of MiB/);
  });
});
