import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // graphql 16 ships CJS and ESM builds; Node (and so every dependency) loads the CJS one, Vite
  // would give our sources the ESM one, and graphql refuses to mix two instances.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One process runs many files: re-evaluating the sources (GraphQL schema, Prisma clients and their
    // WASM query compilers) in a fresh process per file cost seconds of CPU per file. Every file
    // starts and stops its own services and databases, and src/ keeps no per-process state that
    // one service could leak into another (concurrent-start runs 16 in one process).
    isolate: false,
    // vitest's default is one worker per core but one, so a single worker on a 2-core machine. The
    // suite is CPU-bound, and 2 workers on 2 cores pass; 3 once starved the PostgreSQL reliability
    // tests (50 concurrent writers, SIGKILLed first starts) into failures.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    globalSetup: ["test/global-setup.ts"],
  },
});
