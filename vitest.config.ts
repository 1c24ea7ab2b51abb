import os from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Run by test/reliability/racing-suites.test.ts, one after another, never as files of their own. */
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
const RACING_FILE = "test/reliability/racing-suites.test.ts";

/** vitest's order, but the racing suites first: at a few minutes they would otherwise be the run's tail. */
class RacingSuitesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const racing = (file: TestSpecification) => file.moduleId.endsWith(RACING_FILE);
    return [...sorted.filter(racing), ...sorted.filter((file) => !racing(file))];
  }
}

export default defineConfig({
  // graphql 16 ships CJS and ESM builds; Node (and so every dependency) loads the CJS one, Vite
  // would give our sources the ESM one, and graphql refuses to mix two instances.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    include: ["test/**/*.test.ts"],
    exclude: RACING_SUITES,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One process runs many files: re-evaluating the sources (GraphQL schema, Prisma clients and their
    // WASM query compilers) in a fresh process per file cost seconds of CPU per file. Every file
    // starts and stops its own services and databases, and src/ keeps no per-process state that
    // one service could leak into another (concurrent-start runs 16 in one process).
    isolate: false,
    // vitest's default is one worker per core but one, so a single worker on a 2-core machine. The
    // suite is CPU-bound, and 2 workers on 2 cores pass: one runs the racing suites, the other the rest.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    sequence: { sequencer: RacingSuitesFirst },
    globalSetup: ["test/global-setup.ts"],
  },
});
