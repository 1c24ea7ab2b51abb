// bin/toolgate.js run as a command (what `toolgate` and `npx toolgate` do) starts Node with the
// memory settings of docs/performance.md ("Memory"); `node bin/toolgate.js` runs the same program.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const BIN = path.resolve("bin/toolgate.js");
const dir = mkdtempSync(path.join(os.tmpdir(), "toolgate-launcher-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `bin/toolgate.js serve` as an executable; returns what the serving process runs with, then stops it. */
async function serveAsCommand(extraEnv: Record<string, string>) {
  const child = spawn(BIN, ["serve", "--port", "0", "--host", "127.0.0.1"], {
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn", TOOLGATE_DATABASE_URL: `file:${path.join(dir, `${Math.random()}.db`)}`, ...extraEnv },
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      // The banner ends with a blank line; the server handles signals from then on.
      const listening = /listening on http:\/\//.exec(stdout);
      if (listening && stdout.includes("\n\n", listening.index)) resolve();
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening:\n${stdout}\n${stderr}`)));
  });
  const environment = Object.fromEntries(
    readFileSync(`/proc/${child.pid}/environ`, "utf8")
      .split("\0")
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
  const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  const executable = readlinkSync(`/proc/${child.pid}/exe`);
  child.kill("SIGTERM");
  return { environment, commandLine, executable, exitCode: await exited };
}

describe.runIf(process.platform === "linux")("the toolgate launcher", () => {
  it("run as a command, execs Node itself with 2 malloc arenas, a 128 KiB mmap threshold, 8 MiB semi-spaces and baseline-compiled WebAssembly", async () => {
    const served = await serveAsCommand({});
    expect(path.basename(served.executable)).toMatch(/^node/);
    expect(served.environment).toMatchObject({ MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" });
    expect(served.commandLine).toContain("--max-semi-space-size=8");
    expect(served.commandLine).toContain("--liftoff-only");
    expect(served.commandLine).toContain(BIN);
    // The shell replaced itself with Node, so SIGTERM reached the server: a graceful exit.
    expect(served.exitCode).toBe(0);
  }, 60_000);

  it("keeps an operator's own malloc settings", async () => {
    const served = await serveAsCommand({ MALLOC_ARENA_MAX: "4", MALLOC_MMAP_THRESHOLD_: "65536" });
    expect(served.environment).toMatchObject({ MALLOC_ARENA_MAX: "4", MALLOC_MMAP_THRESHOLD_: "65536" });
  }, 60_000);

  it("runs the same program under `node bin/toolgate.js`", async () => {
    const asCommand = await run(BIN, ["--help"]);
    const underNode = await run(process.execPath, [BIN, "--help"]);
    expect(asCommand.stdout).toContain("usage: toolgate");
    expect(asCommand.stdout).toBe(underNode.stdout);
  });
});
