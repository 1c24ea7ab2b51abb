// The toolgate command, run as a user runs it: a child process over a fresh SQLite file.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { COMMANDS } from "../../src/cli/usage.js";
import { bannerExports } from "../helpers/child-process.js";
import { toolgateInProcess } from "../reliability/toolgate-cli.js";

const run = promisify(execFile);
const BIN = path.resolve("bin/toolgate.js");
const dir = mkdtempSync(path.join(os.tmpdir(), "toolgate-cli-"));
const env = { ...process.env, TOOLGATE_DATABASE_URL: `file:${path.join(dir, "cli.db")}`, LOG_LEVEL: "warn" };

async function toolgate(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

/** The command's own code in this process: for checks of many answers (what only a process shows is spawned above). */
const inProcess = (...args: string[]) => toolgateInProcess({ TOOLGATE_DATABASE_URL: env.TOOLGATE_DATABASE_URL }, ...args);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("toolgate CLI", () => {
  it("migrate applies the migrations once", async () => {
    expect(JSON.parse((await toolgate("migrate")).stdout).applied.length).toBeGreaterThan(0);
    expect(JSON.parse((await toolgate("migrate")).stdout)).toEqual({ applied: [] });
  });

  it("creates an account, an environment and a token, printing JSON", async () => {
    const account = JSON.parse((await toolgate("account", "create", "--name", "Carol", "--email", "carol@example.test", "--plan", "team")).stdout);
    expect(account).toMatchObject({ name: "Carol", email: "carol@example.test", plan: "team", admin: false });
    const environment = JSON.parse((await toolgate("environment", "create", "--account", account.id, "--name", "prod", "--version-check")).stdout);
    expect(environment).toMatchObject({ ownerAccountId: account.id, name: "prod", versionCheck: true });
    const token = JSON.parse((await toolgate("token", "create", "--account", account.id, "--name", "ci")).stdout);
    expect(token.secret).toMatch(/^tg_[\w-]{43}$/);
    const revoked = JSON.parse((await toolgate("token", "revoke", "--id", token.id)).stdout);
    expect(revoked.revokedAt).not.toBeNull();
  }, 120_000);

  it("reports domain errors as JSON with a non-zero exit", async () => {
    await toolgate("account", "create", "--name", "Dave", "--email", "dave@example.test");
    const result = await toolgate("account", "create", "--name", "Dave again", "--email", "dave@example.test");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({ code: "ACCOUNT_CONFLICT", errors: ["an account with e-mail dave@example.test already exists"] });
  }, 120_000);

  it("reports bad option values one per line with exit code 2 (test/reliability/cli-validation.test.ts has the rest)", async () => {
    const result = await toolgate("account", "create", "--name", " ", "--email", "not-an-email");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('--name: must not be empty\n--email: "not-an-email" is not an e-mail address\n');
  });

  it("rejects bad configuration with a clear message and exit code 2", async () => {
    const result = await toolgate("migrate", "--database-url", "mysql://nope");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--database-url: must start with file:");
  });

  it("serve --demo starts, prints export lines with which the README's curl block runs verbatim, and stops gracefully on SIGTERM", async () => {
    const demoEnv = { ...env, TOOLGATE_DATABASE_URL: `file:${path.join(dir, "demo.db")}` };
    const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--demo"], { env: demoEnv });
    onTestFinished(() => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/[\d.:]+)[\s\S]*bob \(deployer\)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once("exit", (code) => reject(new Error(`serve exited early (${code}): ${output}`)));
    });
    expect(output).toMatch(/alice \(owner\)\s+Bearer tg_/);
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: "ok" });

    // The README's curl block, verbatim, after the export lines the banner printed.
    await new Promise<void>((resolve) =>
      /^export H=.*\n/m.test(output) ? resolve() : child.stdout.on("data", () => /^export H=.*\n/m.test(output) && resolve()),
    );
    const exports = bannerExports(output);
    expect(exports).toEqual([
      expect.stringMatching(new RegExp(`^export B=${url} T=tg_\\S+ ACCOUNT=[\\da-f-]{36} BOB_T=tg_\\S+ BOB_ACCOUNT=[\\da-f-]{36}$`)),
      expect.stringMatching(/^export ENV=[\da-f-]{36} PRODUCTION_ENV=[\da-f-]{36} RELEASE=[\da-f-]{36} GRANT=[\da-f-]{36}$/),
      'export H="Authorization: Bearer $T" J="Content-Type: application/json"',
    ]);
    const readme = readFileSync("README.md", "utf8");
    const curlBlock = /paste the three `export`[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    const { stdout: curled } = await run("bash", ["-ec", `${exports.join("\n")}\n${curlBlock}`]);
    const [health, me, releases] = curled.replace(/\}\{/g, "}\n{").split("\n");
    expect(JSON.parse(health!)).toEqual({ status: "ok" });
    const alice = JSON.parse(me!).data.me;
    expect(alice).toMatchObject({ email: "alice@demo.toolgate.dev" });
    expect(exports[0]).toContain(`ACCOUNT=${alice.uuid}`);
    expect(JSON.parse(releases!).values.map((release: { name: string }) => release.name)).toContain("json-format");
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 120_000);
});

describe("toolgate list commands", () => {
  it("account, environment and token list print a table, or JSON with --json", async () => {
    const account = JSON.parse((await inProcess("account", "create", "--name", "Erin", "--email", "erin@example.test")).stdout);
    const environment = JSON.parse((await inProcess("environment", "create", "--account", account.id, "--name", "erin-prod")).stdout);
    const token = JSON.parse((await inProcess("token", "create", "--account", account.id, "--name", "erin-ci")).stdout);

    const accounts = await inProcess("account", "list");
    expect(accounts.code, accounts.stderr).toBe(0);
    const [header, ...rows] = accounts.stdout.trimEnd().split("\n");
    expect(header!.split(/\s+/)).toEqual(["id", "name", "email", "plan", "admin", "createdAt"]);
    expect(rows.find((row) => row.startsWith(account.id))).toMatch(new RegExp(`^${account.id}\\s+Erin\\s+erin@example\\.test\\s+free\\s+false\\s+\\d{4}-`));
    expect(JSON.parse((await inProcess("account", "list", "--json")).stdout)).toContainEqual({ ...account, createdAt: account.createdAt });

    expect(JSON.parse((await inProcess("environment", "list", "--account", account.id, "--json")).stdout)).toEqual([
      { id: environment.id, ownerAccountId: account.id, name: "erin-prod", versionCheck: false, createdAt: environment.createdAt },
    ]);
    const environments = (await inProcess("environment", "list")).stdout;
    expect(environments).toMatch(new RegExp(`^${environment.id}\\s+${account.id}\\s+erin-prod\\s+false`, "m"));

    const tokens = JSON.parse((await inProcess("token", "list", "--account", account.id, "--json")).stdout);
    expect(tokens).toEqual([{ id: token.id, accountId: account.id, name: "erin-ci", createdAt: token.createdAt, expiresAt: null, revokedAt: null }]);
    const table = (await inProcess("token", "list", "--account", account.id)).stdout;
    expect(table).toMatch(new RegExp(`^${token.id}\\s+${account.id}\\s+erin-ci\\s+\\S+\\s+-\\s+-$`, "m"));
    expect(table).not.toContain(token.secret);
  }, 120_000);

  it("token create --admin issues a working token for the bootstrap admin (a lost admin token)", async () => {
    const serving = spawn(process.execPath, [BIN, "serve", "--port", "0"], { env: { ...env, TOOLGATE_DATABASE_URL: `file:${path.join(dir, "admin.db")}` } });
    onTestFinished(() => {
      if (serving.exitCode === null) serving.kill("SIGKILL");
    });
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      serving.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/[\d.:]+)[\s\S]*Bearer tg_\S+\n/.exec(output);
        if (match) resolve(match[1]!);
      });
      serving.once("exit", (code) => reject(new Error(`serve exited early (${code}): ${output}`)));
    });
    const adminEnv = { ...env, TOOLGATE_DATABASE_URL: `file:${path.join(dir, "admin.db")}` };
    const issued = JSON.parse((await run(process.execPath, [BIN, "token", "create", "--admin"], { env: adminEnv })).stdout);
    expect(issued).toMatchObject({ name: "admin (toolgate token create --admin)", secret: expect.stringMatching(/^tg_/) });
    const me = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${issued.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ me { email admin } }" }),
    });
    expect((await me.json()).data).toEqual({ me: { email: "admin@toolgate.local", admin: true } });
    serving.kill("SIGTERM");
  }, 120_000);
});

describe("toolgate help and --version", () => {
  it("--version prints the version; help and --help the commands; <command> --help and help <command> the same page for that command", async () => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    expect(await toolgate("--version")).toEqual({ stdout: `${version}\n`, stderr: "", code: 0 });
    const usage = await toolgate("help");
    expect(usage.code).toBe(0);
    expect((await toolgate("--help")).stdout).toBe(usage.stdout);
    expect(usage.stdout).toMatch(/^usage: toolgate <command> \[options\]/);
    const spawned = await toolgate("account", "create", "--help");
    expect(spawned).toMatchObject({ code: 0, stderr: "" });
    expect(spawned.stdout).toMatch(/^usage: toolgate account create --name NAME --email EMAIL/);
    for (const command of COMMANDS) {
      expect(usage.stdout).toContain(`\n  ${command.name} `);
      const page = await inProcess(...command.name.split(" "), "--help");
      expect(page.code).toBe(0);
      expect(page.stdout.startsWith(`usage: toolgate ${command.name}`)).toBe(true);
      for (const option of [...Object.keys(command.options), "database-url", "help"]) expect(page.stdout).toMatch(new RegExp(`^  --${option} +\\S`, "m"));
      expect((await inProcess("help", ...command.name.split(" "))).stdout).toBe(page.stdout);
    }
    expect((await inProcess("help", "account", "create")).stdout).toBe(spawned.stdout);
    expect(await inProcess("help", "frobnicate")).toEqual({ stdout: "", stderr: "frobnicate: unknown command (toolgate help lists the commands)\n", code: 2 });
    // A first word alone: its commands, or what it needs.
    expect((await inProcess("help", "token")).stdout).toMatch(/^usage: toolgate token create .*\nusage: toolgate token revoke .*\nusage: toolgate token list /);
    expect(await inProcess("environment")).toEqual({
      stdout: "",
      stderr: "environment: needs one of create, share, list (toolgate help environment)\n",
      code: 2,
    });
  }, 60_000);
});

describe("toolgate errors: one line on stderr, exit status 2, no stack trace", () => {
  const oneLine = async (args: string[], line: string | RegExp, extraEnv: Record<string, string> = {}) => {
    const result = await run(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv } }).then(
      ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
      (error: { stdout: string; stderr: string; code: number }) => error,
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(line);
  };

  // Each case is its own process; they run side by side.
  it("--port out of range, not a number, not an integer; PORT likewise", async () => {
    await Promise.all([
      oneLine(["serve", "--port", "99999"], "--port: out of range (0–65535; 0 picks a free port)"),
      oneLine(["serve", "--port=-1"], "--port: out of range (0–65535; 0 picks a free port)"),
      oneLine(["serve", "--port", "eighty"], "--port: must be a number"),
      oneLine(["serve", "--port", "80.5"], "--port: must be an integer"),
      oneLine(["serve"], "PORT: out of range (0–65535; 0 picks a free port)", { PORT: "70000" }),
    ]);
  }, 120_000);

  it("unknown commands and options, missing option values", async () => {
    await Promise.all([
      oneLine(["frobnicate"], "frobnicate: unknown command (toolgate help lists the commands)"),
      oneLine(["account", "delete"], "account delete: unknown command (toolgate help lists the commands)"),
      oneLine(["migrate", "--bogus"], "--bogus: unknown option (toolgate help lists the commands and their options)"),
      oneLine(["migrate", "--database-url"], "--database-url: needs a value"),
      oneLine(["serve", "--port"], "--port: needs a value"),
      oneLine(["account", "list", "--plan", "team"], "--plan: not an option of account list (toolgate help account list)"),
      oneLine(["seed"], "--demo: required (the demo data is the one data set seed loads)"),
      oneLine(["serve", "--demo=yes"], "--demo: takes no value"),
      oneLine(
        ["token", "create", "--admin", "--account", "0190f0a8-6c1e-7c3a-9d2b-1f4e5a6b7c8d"],
        "--admin: issues the bootstrap admin's token; leave out --account",
      ),
      oneLine(["token", "list", "--account", "alice"], '--account: "alice" is not a UUID'),
    ]);
  }, 120_000);

  it("bad database URLs, an unreachable database, a file that is not a database", async () => {
    const notADatabase = path.join(dir, "not-a-database.db");
    writeFileSync(notADatabase, "plain text\n".repeat(100));
    await Promise.all([
      oneLine(["migrate", "--database-url", "mysql://db/registry"], "--database-url: must start with file: or postgres:// (or postgresql://)"),
      oneLine(
        ["account", "list", "--database-url", "postgres://toolgate@no-such-host.invalid/registry"],
        /^cannot start: database .* is unavailable: getaddrinfo/,
      ),
      oneLine(
        ["migrate", "--database-url", "postgres://toolgate@127.0.0.1:1/registry"],
        /^cannot start: database "registry" on 127\.0\.0\.1:1 .* is unavailable: connect ECONNREFUSED/,
      ),
      oneLine(
        ["account", "list", "--database-url", `file:${notADatabase}`],
        `cannot start: database file:${notADatabase} cannot be opened: file is not a database`,
      ),
      oneLine(
        ["migrate", "--database-url", `file:${path.join(notADatabase, "inside.db")}`],
        /^cannot start: database file:.* cannot be opened: unable to open database file$/,
      ),
    ]);
  }, 120_000);
});
