import os from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Suites that race many clients, processes or signals against time: 50 concurrent writers, two
 * servers on one database, 16 concurrent first starts, a thousand subscribers, SIGTERM and SIGKILL
 * mid-request, a database cut away. They run after the rest, one at a time, so a busy machine slows
 * them instead of starving them into timeouts, and they never compete with each other. The bulky
 * suites that only count (the fuzzer, memory bounds, SIGKILLed first starts) stay with the rest.
 */
const RACING_SUITES = [
  "test/reliability/concurrent-writes.test.ts",
  "test/reliability/two-processes.test.ts",
  "test/reliability/concurrent-start.test.ts",
  "test/reliability/cross-account-writes.test.ts",
  "test/reliability/shutdown.test.ts",
  "test/reliability/crash-durability.test.ts",
  "test/reliability/database-outage.test.ts",
  "test/api/events/fan-out.test.ts",
];

export default defineConfig({
  // graphql 16 ships CJS and ESM builds; Node (and so every dependency) loads the CJS one, Vite
  // would give our sources the ESM one, and graphql refuses to mix two instances.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One process runs many files: re-evaluating the sources (GraphQL schema, Prisma clients and their
    // WASM query compilers) in a fresh process per file cost seconds of CPU per file. Every file
    // starts and stops its own services and databases, and src/ keeps no per-process state that
    // one service could leak into another (concurrent-start runs 16 in one process).
    isolate: false,
    globalSetup: ["test/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: RACING_SUITES,
          // vitest's default is one worker per core but one, so a single worker on a 2-core
          // machine. These files are CPU-bound and independent: 2 workers on 2 cores.
          maxWorkers: Math.max(2, os.availableParallelism() - 1),
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: "racing", include: RACING_SUITES, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
