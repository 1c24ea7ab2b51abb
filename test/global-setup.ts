// Builds dist/ before any test file runs: tests start servers and the CLI through bin/toolgate.js,
// exactly as operators do, and a stale build would test old code. Then migrates the database
// templates the test services copy (test/helpers/database-templates.ts).
import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { createDatabaseTemplates } from "./helpers/database-templates.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  const { templates, drop } = await createDatabaseTemplates(process.env.TOOLGATE_TEST_POSTGRES_URL);
  project.provide("databaseTemplates", templates);
  return drop;
}
