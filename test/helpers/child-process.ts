// Runs the real `toolgate` command as a child process, as an operator (or an orchestrator) does:
// to send it signals, kill it, and read what it prints and how it exits.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";

const BIN = path.resolve("bin/toolgate.js");

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** When the process exited (performance.now()). */
  at: number;
}

export interface ToolgateProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
  /** SIGKILL unless it already exited; for test clean-up. */
  ensureDead(): Promise<void>;
}

/** Runs bin/toolgate.js as an executable, so with the launcher's memory settings and V8 flags, as shipped. */
export function runToolgate(args: string[], env: Record<string, string>, bin = BIN): ToolgateProcess {
  const child = spawn(bin, args, { env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn", ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal, at: performance.now() })));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    ensureDead: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** The `export` lines a demo banner printed, to paste into a shell: ids and tokens, then the headers. */
export const bannerExports = (stdout: string): string[] => stdout.split("\n").filter((line) => line.startsWith("export "));

export interface ServingToolgate extends ToolgateProcess {
  url: string;
}

/** `toolgate serve --port 0` (plus `extraArgs`, e.g. `--demo`); resolves once the banner shows the URL. `bin`: another copy of the command. */
export async function serveToolgate(env: Record<string, string>, timeoutMs = 60_000, extraArgs: string[] = [], bin = BIN): Promise<ServingToolgate> {
  const started = runToolgate(["serve", "--port", "0", "--host", "127.0.0.1", ...extraArgs], env, bin);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within ${timeoutMs} ms:\n${started.stdout()}\n${started.stderr()}`)), timeoutMs);
    const check = () => {
      const match = /listening on (http:\/\/[\d.:]+)/.exec(started.stdout());
      if (match && started.stdout().includes("\n\n", match.index)) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    started.child.stdout.on("data", check);
    void started.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited early (${code ?? signal}):\n${started.stdout()}\n${started.stderr()}`));
    });
  });
  return { ...started, url };
}

/**
 * The shipped server over a test service's database, with rate limits off: one client address
 * sending thousands of requests a second (fuzzing, load) is not what the limits are tested with.
 */
export function serveUnlimited(service: { databaseUrl: string; adminToken: string }): Promise<ServingToolgate> {
  return serveToolgate({
    TOOLGATE_DATABASE_URL: service.databaseUrl,
    TOOLGATE_ADMIN_TOKEN: service.adminToken,
    TOOLGATE_RATE_LIMIT_PER_TOKEN: "0",
    TOOLGATE_RATE_LIMIT_ANONYMOUS: "0",
  });
}
