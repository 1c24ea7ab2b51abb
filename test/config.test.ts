import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";

describe("configuration", () => {
  it("defaults to the embedded SQLite database on 127.0.0.1:4000", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ databaseUrl: "file:./data/toolgate.db", port: 4000, host: "127.0.0.1", logLevel: "info", introspection: true, demo: false });
  });

  it("reads every variable", () => {
    const config = loadConfig({
      TOOLGATE_DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
      PORT: "8080",
      HOST: "0.0.0.0",
      LOG_LEVEL: "debug",
      TOOLGATE_ADMIN_TOKEN: "a".repeat(40),
      TOOLGATE_INTROSPECTION: "false",
      TOOLGATE_DEMO: "true",
    });
    expect(config).toMatchObject({ port: 8080, host: "0.0.0.0", logLevel: "debug", adminToken: "a".repeat(40), introspection: false, demo: true });
  });

  it("turns introspection off in production unless asked for", () => {
    expect(loadConfig({ NODE_ENV: "production" }).introspection).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", TOOLGATE_INTROSPECTION: "on" }).introspection).toBe(true);
  });

  it("reports every bad value with a clear message", () => {
    let error: unknown;
    try {
      loadConfig({ TOOLGATE_DATABASE_URL: "mysql://x", PORT: "eighty", LOG_LEVEL: "loud", TOOLGATE_ADMIN_TOKEN: "short", TOOLGATE_INTROSPECTION: "maybe" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^TOOLGATE_DATABASE_URL: must start with file:/),
        expect.stringMatching(/^PORT: must be a number/),
        expect.stringMatching(/^LOG_LEVEL: must be one of/),
        expect.stringMatching(/^TOOLGATE_ADMIN_TOKEN: must be at least 32 characters/),
        expect.stringMatching(/^TOOLGATE_INTROSPECTION: must be one of/),
      ]),
    );
    expect(problems).toHaveLength(5);
  });
});

describe("operability settings", () => {
  it("default to /metrics open on the main port and no CORS", () => {
    expect(loadConfig({})).toMatchObject({ metrics: { token: undefined, port: undefined }, corsOrigins: [] });
  });

  it("read the metrics token and port and the CORS origins list", () => {
    const config = loadConfig({
      TOOLGATE_METRICS_TOKEN: "m".repeat(20),
      TOOLGATE_METRICS_PORT: "9464",
      TOOLGATE_CORS_ORIGINS: " https://app.example.com, http://localhost:5173 ,",
    });
    expect(config).toMatchObject({ metrics: { token: "m".repeat(20), port: 9464 }, corsOrigins: ["https://app.example.com", "http://localhost:5173"] });
    expect(loadConfig({ TOOLGATE_CORS_ORIGINS: "*" }).corsOrigins).toEqual(["*"]);
  });

  it("refuse a short token, a port out of range and origins with paths or other schemes", () => {
    expect(() => loadConfig({ TOOLGATE_METRICS_TOKEN: "short" })).toThrow(/TOOLGATE_METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadConfig({ TOOLGATE_METRICS_PORT: "99999" })).toThrow(/TOOLGATE_METRICS_PORT: out of range/);
    for (const origins of ["https://app.example.com/", "https://app.example.com/path", "ftp://x.example.com", "app.example.com"]) {
      expect(() => loadConfig({ TOOLGATE_CORS_ORIGINS: origins }), origins).toThrow(/TOOLGATE_CORS_ORIGINS\.?\d*: each entry must be \* or an origin/);
    }
  });
});

describe("live subscription settings", () => {
  it("cap open subscriptions at 100 per token unless told otherwise, and refuse a cap below 1", () => {
    expect(loadConfig({}).maxSubscriptionsPerToken).toBe(100);
    expect(loadConfig({ TOOLGATE_MAX_SUBSCRIPTIONS_PER_TOKEN: "250" }).maxSubscriptionsPerToken).toBe(250);
    expect(() => loadConfig({ TOOLGATE_MAX_SUBSCRIPTIONS_PER_TOKEN: "0" })).toThrow(/TOOLGATE_MAX_SUBSCRIPTIONS_PER_TOKEN: must be at least 1/);
    expect(() => loadConfig({ TOOLGATE_MAX_SUBSCRIPTIONS_PER_TOKEN: "many" })).toThrow(/TOOLGATE_MAX_SUBSCRIPTIONS_PER_TOKEN: must be a number/);
  });
});
