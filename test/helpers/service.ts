// Starts a real toolgate on an ephemeral port over a fresh database, and speaks HTTP to it.
import { describe, inject } from "vitest";
import { loadConfig, type Config } from "../../src/config.js";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { startService, type Service, type ServiceHooks } from "../../src/service.js";
import { copyDatabaseTemplate } from "./database-templates.js";

export const POSTGRES_URL = process.env.TOOLGATE_TEST_POSTGRES_URL;

export interface TestService extends Service {
  provider: DatabaseProvider;
  databaseUrl: string;
  adminToken: string;
  stopAndDrop(): Promise<void>;
}

export async function startTestService(provider: DatabaseProvider, configOverrides: Partial<Config> = {}, hooks: ServiceHooks = {}): Promise<TestService> {
  const scratch = await createMigratedDatabase(provider);
  const adminToken = `tg_test_admin_${Math.random().toString(36).slice(2)}_${"x".repeat(24)}`;
  const config = loadConfig({}, { databaseUrl: scratch.url, port: 0, host: "127.0.0.1", logLevel: "silent", adminToken, ...configOverrides });
  const service = await startService(config, hooks);
  // A test may stop the service itself (to start another on its database) before dropping it.
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= service.stop());
  return {
    ...service,
    stop,
    provider,
    databaseUrl: scratch.url,
    // The generated one when a test overrides adminToken with undefined.
    adminToken: service.adminToken ?? adminToken,
    stopAndDrop: async () => {
      await stop();
      await scratch.drop();
    },
  };
}

/** A fresh database with the committed migrations applied (a copy of the run's template). */
export function createMigratedDatabase(provider: DatabaseProvider) {
  return copyDatabaseTemplate(inject("databaseTemplates"), provider, POSTGRES_URL);
}

if (!POSTGRES_URL && !(globalThis as { __toolgateSkipNotice?: boolean }).__toolgateSkipNotice) {
  (globalThis as { __toolgateSkipNotice?: boolean }).__toolgateSkipNotice = true;
  console.warn("[toolgate tests] TOOLGATE_TEST_POSTGRES_URL is not set: PostgreSQL runs of the API suites are skipped.");
}

/** `describe` once per provider; the PostgreSQL variant is reported as skipped when it cannot run. */
export function describeEachDatabase(name: string, suite: (provider: DatabaseProvider) => void): void {
  for (const provider of ["sqlite", "postgresql"] as const) {
    const run = provider === "sqlite" || POSTGRES_URL ? describe : describe.skip;
    run(`${name} [${provider}]`, () => suite(provider));
  }
}
