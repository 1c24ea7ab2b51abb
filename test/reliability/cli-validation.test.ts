// The CLI checks its options as the API checks its input (the same schemas, src/domain/inputs.ts):
// every bad value on its own line, exit status 2, no stack trace, and nothing written. The command
// runs in this process; test/cli/cli.test.ts spawns it for what only a process shows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "../../src/db/migrations.js";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { describeEachDatabase, POSTGRES_URL } from "../helpers/service.js";
import { toolgateInProcess as toolgate, type CliResult } from "./toolgate-cli.js";

const NO_SUCH_ID = "0190f0a8-6c1e-7c3a-9d2b-1f4e5a6b7c8d";

function expectRejected(result: CliResult, lines: string[]): void {
  expect(result.code).toBe(2);
  expect(result.stderr.trimEnd().split("\n")).toEqual(lines);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stdout).toBe("");
}

describeEachDatabase("toolgate CLI options", (provider) => {
  let scratch: ScratchDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    scratch = await createScratchDatabase(provider, POSTGRES_URL);
    // Admin commands refuse a database that does not exist: `migrate` creates it, as an operator would.
    await migrateDatabase(scratch.url);
    env = { TOOLGATE_DATABASE_URL: scratch.url };
  });
  afterAll(() => scratch?.drop());

  describe("account create", () => {
    it("--plan gold exits 2 with one clear line, and creates nothing", async () => {
      expectRejected(await toolgate(env, "account", "create", "--name", "Gold", "--email", "gold@example.test", "--plan", "gold"), [
        '--plan: "gold" is not one of free, team, unlimited',
      ]);
      const created = await toolgate(env, "account", "create", "--name", "Gold", "--email", "gold@example.test");
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({ email: "gold@example.test", plan: "free" });
    });

    it("lists every bad value, one line each", async () => {
      expectRejected(await toolgate(env, "account", "create", "--name", " ", "--email", "not-an-email", "--plan", "GOLD"), [
        "--name: must not be empty",
        '--email: "not-an-email" is not an e-mail address',
        '--plan: "GOLD" is not one of free, team, unlimited',
      ]);
      expectRejected(await toolgate(env, "account", "create"), ["--name: is required", "--email: is required"]);
    });
  });

  it("environment create: the account must be a UUID and the name non-empty", async () => {
    expectRejected(await toolgate(env, "environment", "create", "--account", "alice", "--name", ""), [
      '--account: "alice" is not a UUID',
      "--name: must not be empty",
    ]);
  });

  it("environment share: role viewer or deployer, ids UUIDs", async () => {
    expectRejected(await toolgate(env, "environment", "share", "--environment", "prod", "--account", NO_SUCH_ID, "--role", "owner"), [
      '--environment: "prod" is not a UUID',
      '--role: "owner" is not one of viewer, deployer',
    ]);
    expectRejected(await toolgate(env, "environment", "share"), ["--environment: is required", "--account: is required", "--role: is required"]);
  });

  it("token create: an ISO 8601 expiry in the future", async () => {
    expectRejected(await toolgate(env, "token", "create", "--account", NO_SUCH_ID, "--name", "ci", "--expires-at", "tomorrow"), [
      "--expires-at: must be an ISO 8601 date-time",
    ]);
    expectRejected(await toolgate(env, "token", "create", "--account", NO_SUCH_ID, "--name", "ci", "--expires-at", "2001-01-01T00:00:00Z"), [
      "--expires-at: must be in the future",
    ]);
  });

  it("token revoke: the id must be a UUID", async () => {
    expectRejected(await toolgate(env, "token", "revoke", "--id", "1"), ['--id: "1" is not a UUID']);
  });

  it("valid options that name a missing account are a domain error: JSON, exit 1", async () => {
    const result = await toolgate(env, "environment", "create", "--account", NO_SUCH_ID, "--name", "prod");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({ code: "ACCOUNT_NOT_FOUND", errors: [`account ${NO_SUCH_ID} not found`] });
  });
});
