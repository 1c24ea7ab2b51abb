// A token's secretHash identifies its secret as well as the secret does (it is what authentication
// looks up), so no output shows it: no GraphQL field, no CLI command.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isObjectType, isInterfaceType } from "graphql";
import { migrateDatabase } from "../../src/db/migrations.js";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { hashSecret } from "../../src/domain/tokens.js";
import { buildSchema } from "../../src/graphql/schema.js";
import { describeEachDatabase, POSTGRES_URL } from "../helpers/service.js";
import { toolgate } from "./toolgate-cli.js";

describe("GraphQL schema", () => {
  it("has no field that answers a secret hash", () => {
    const fields = Object.values(buildSchema().getTypeMap())
      .filter((type) => (isObjectType(type) || isInterfaceType(type)) && !type.name.startsWith("__"))
      .flatMap((type) => Object.keys((type as { getFields(): object }).getFields()).map((field) => `${type.name}.${field}`));
    expect(fields.length).toBeGreaterThan(50);
    expect(fields.filter((field) => /hash/i.test(field))).toEqual([]);
  });
});

describeEachDatabase("toolgate CLI output", (provider) => {
  let scratch: ScratchDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    scratch = await createScratchDatabase(provider, POSTGRES_URL);
    // Admin commands refuse a database that does not exist: `migrate` creates it, as an operator would.
    await migrateDatabase(scratch.url);
    env = { TOOLGATE_DATABASE_URL: scratch.url };
  });
  afterAll(() => scratch?.drop());

  it("no command prints a token's hash; token revoke prints id, accountId, name, createdAt, expiresAt, revokedAt", async () => {
    const outputs: string[] = [];
    const ok = async (...args: string[]) => {
      const result = await toolgate(env, ...args);
      expect(result.code, result.stderr).toBe(0);
      outputs.push(result.stdout, result.stderr);
      return JSON.parse(result.stdout);
    };
    const seeded = await ok("seed", "--demo");
    const account = await ok("account", "create", "--name", "Erin", "--email", "erin@example.test", "--plan", "team");
    const friend = await ok("account", "create", "--name", "Frank", "--email", "frank@example.test");
    const environment = await ok("environment", "create", "--account", account.id, "--name", "prod");
    await ok("environment", "share", "--environment", environment.id, "--account", friend.id, "--role", "viewer");
    const issued = await ok("token", "create", "--account", account.id, "--name", "ci", "--expires-at", "2099-01-01T00:00:00Z");
    const revoked = await ok("token", "revoke", "--id", issued.id);
    const revokedAgain = await ok("token", "revoke", "--id", issued.id);

    expect(Object.keys(revoked).sort()).toEqual(["accountId", "createdAt", "expiresAt", "id", "name", "revokedAt"]);
    expect(revoked).toMatchObject({ id: issued.id, accountId: account.id, name: "ci", expiresAt: "2099-01-01T00:00:00.000Z", revokedAt: expect.any(String) });
    expect(revokedAgain).toEqual(revoked);
    expect(Object.keys(issued).sort()).toEqual(["accountId", "createdAt", "expiresAt", "id", "name", "revokedAt", "secret"]);

    const hashes = [issued.secret, seeded.tokens.owner, seeded.tokens.deployer].map(hashSecret);
    for (const output of outputs) {
      expect(output).not.toMatch(/secretHash/i);
      for (const hash of hashes) expect(output.includes(hash)).toBe(false);
    }
  }, 120_000);
});
