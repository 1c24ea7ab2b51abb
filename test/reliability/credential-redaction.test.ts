// A PostgreSQL URL carries its password. Nothing toolgate prints or logs shows it: not the start-up
// banner, not the request log, not the errors of a database that is missing or unreachable.
// (SQLite URLs are file paths without credentials, so this suite runs on PostgreSQL only.)
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { providerOf } from "../../src/db/database-url.js";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { createRoleWithoutCreatedb } from "../helpers/postgres-role.js";
import { POSTGRES_URL } from "../helpers/service.js";
import { toolgate } from "./toolgate-cli.js";

const PASSWORD = "s3cret";

/** The test server's URL with a password; trust authentication accepts any. */
function withPassword(url: string, database?: string, port?: string): string {
  const parsed = new URL(url);
  parsed.password = PASSWORD;
  if (database) parsed.pathname = `/${database}`;
  if (port) parsed.port = port;
  return parsed.toString();
}

it("an unsupported database URL is reported without its password", () => {
  expect(() => providerOf(`mysql://root:${PASSWORD}@db/registry`)).toThrow(/unsupported database URL .*mysql:\/\/root:\*\*\*@db\/registry/);
  expect(() => providerOf(`mysql://root:${PASSWORD}@db/registry`)).not.toThrow(new RegExp(PASSWORD));
});

it("a configuration error names the variable, not the URL's password", async () => {
  const result = await toolgate({ TOOLGATE_DATABASE_URL: `mysql://root:${PASSWORD}@db/registry` }, "migrate");
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("TOOLGATE_DATABASE_URL: must start with file:");
  expect(`${result.stdout}${result.stderr}`).not.toContain(PASSWORD);
});

(POSTGRES_URL ? describe : describe.skip)("a PostgreSQL URL with a password [postgresql]", () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase("postgresql", withPassword(POSTGRES_URL!));
    expect(scratch.url).toContain(`:${PASSWORD}@`);
  });
  afterAll(() => scratch?.drop());

  it("serve: the banner shows the URL with *** for the password, and nothing printed or logged shows the password", async () => {
    const child = spawn(process.execPath, [path.resolve("bin/toolgate.js"), "serve", "--port", "0", "--log-level", "trace"], {
      env: { ...process.env, TOOLGATE_DATABASE_URL: scratch.url, TOOLGATE_ADMIN_TOKEN: "" },
    });
    onTestFinished(() => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/[\d.:]+)[\s\S]*database\s+\S+\n/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once("exit", (code) => reject(new Error(`serve exited early (${code}): ${output}`)));
    });
    // Requests that log: success, readiness, 401, 404 and a GraphQL error.
    await fetch(`${url}/healthz`);
    await fetch(`${url}/readyz`);
    await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer tg_wrong" },
      body: '{"query":"{ me { id } }"}',
    });
    await fetch(`${url}/v1/nothing-here`);
    await fetch(`${url}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{ nope }"}' });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);

    expect(output).toContain(`database   ${scratch.url.replace(`:${PASSWORD}@`, ":***@")}`);
    expect(output).toMatch(/"msg":"request"|"path":"\/healthz"/);
    expect(output.includes(PASSWORD), "the password was printed").toBe(false);
  }, 60_000);

  it("migrate, and the errors of a missing database (not creatable) and an unreachable server, never show the password", async () => {
    const role = await createRoleWithoutCreatedb(POSTGRES_URL!);
    onTestFinished(() => role.drop());
    const results = [
      await toolgate({ TOOLGATE_DATABASE_URL: scratch.url }, "migrate"),
      await toolgate({ TOOLGATE_DATABASE_URL: role.url("toolgate_no_such_database", PASSWORD) }, "migrate"),
      await toolgate({ TOOLGATE_DATABASE_URL: withPassword(POSTGRES_URL!, undefined, "1") }, "account", "create", "--name", "A", "--email", "a@example.test"),
    ];
    expect(results.map((result) => result.code)).toEqual([0, 2, 2]);
    for (const result of results) expect(`${result.stdout}${result.stderr}`.includes(PASSWORD), result.stderr).toBe(false);
  }, 60_000);
});
