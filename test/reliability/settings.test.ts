// The fault-handling settings: sane defaults, read from the environment, bad values reported.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

describe("database and shutdown settings", () => {
  it("defaults to a 5 s connect timeout, a 15 s statement timeout, 10 connections and a 10 s grace period", () => {
    expect(loadConfig({})).toMatchObject({ postgres: { connectTimeoutMs: 5000, statementTimeoutMs: 15_000, poolSize: 10 }, shutdownGraceMs: 10_000 });
  });

  it("reads TOOLGATE_DB_CONNECT_TIMEOUT_MS, TOOLGATE_DB_STATEMENT_TIMEOUT_MS, TOOLGATE_DB_POOL_SIZE and TOOLGATE_SHUTDOWN_GRACE_MS", () => {
    const config = loadConfig({ TOOLGATE_DB_CONNECT_TIMEOUT_MS: "2000", TOOLGATE_DB_STATEMENT_TIMEOUT_MS: "30000", TOOLGATE_DB_POOL_SIZE: "25", TOOLGATE_SHUTDOWN_GRACE_MS: "20000" });
    expect(config).toMatchObject({ postgres: { connectTimeoutMs: 2000, statementTimeoutMs: 30_000, poolSize: 25 }, shutdownGraceMs: 20_000 });
  });

  it("reports bad values", () => {
    let error: unknown;
    try {
      loadConfig({ TOOLGATE_DB_CONNECT_TIMEOUT_MS: "soon", TOOLGATE_DB_POOL_SIZE: "0", TOOLGATE_SHUTDOWN_GRACE_MS: "-1" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^TOOLGATE_DB_CONNECT_TIMEOUT_MS: must be a number of milliseconds/),
        expect.stringMatching(/^TOOLGATE_DB_POOL_SIZE: must be at least 1/),
        expect.stringMatching(/^TOOLGATE_SHUTDOWN_GRACE_MS: must be at least 1/),
      ]),
    );
  });
});
