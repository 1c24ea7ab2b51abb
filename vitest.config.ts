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
    globalSetup: ["test/global-setup.ts"],
  },
});
