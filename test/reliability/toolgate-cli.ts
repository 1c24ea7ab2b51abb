// Runs the toolgate command as a user does: a child process, given environment, exit code and output.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const BIN = path.resolve("bin/toolgate.js");

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

export async function toolgate(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  try {
    // As an executable: the launcher's settings and V8 flags apply, as for an operator.
    const { stdout, stderr } = await run(BIN, args, { env: { ...process.env, LOG_LEVEL: "warn", ...env } });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

/**
 * The same command run inside this process (src/cli/run.ts), for suites that check many answers of
 * the command's own code: no Node start and bundle load per case. What only a process shows (the
 * launcher, exit statuses, output streams) is proved by the spawning tests (test/cli/).
 */
export async function toolgateInProcess(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  const { runCli } = await import("../../src/cli/run.js");
  let stdout = "";
  let stderr = "";
  const outcome = await runCli(args, {
    out: (text) => (stdout += `${text}\n`),
    err: (text) => (stderr += `${text}\n`),
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
  });
  if (outcome === "serving") throw new Error("toolgateInProcess runs the admin commands, not serve");
  return { stdout, stderr, code: outcome };
}
