// The toolgate command, run as a user runs it: a child process over a fresh SQLite file.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";

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
  });

  it("reports domain errors as JSON with a non-zero exit", async () => {
    await toolgate("account", "create", "--name", "Dave", "--email", "dave@example.test");
    const result = await toolgate("account", "create", "--name", "Dave again", "--email", "dave@example.test");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({ code: "ACCOUNT_CONFLICT", errors: ["an account with e-mail dave@example.test already exists"] });
  });

  it("reports bad option values one per line with exit code 2 (test/reliability/cli-validation.test.ts has the rest)", async () => {
    const result = await toolgate("account", "create", "--name", " ", "--email", "not-an-email");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('--name: must not be empty\n--email: "not-an-email" is not an e-mail address\n');
  });

  it("rejects bad configuration with a clear message and exit code 2", async () => {
    const result = await toolgate("migrate", "--database-url", "mysql://nope");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("TOOLGATE_DATABASE_URL: must start with file:");
  });

  it("serve starts, answers /healthz and stops gracefully on SIGTERM", async () => {
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
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
