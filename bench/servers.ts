// The two servers under load, each a child process started as its operator would: toolgate through
// its command (`toolgate serve`: bin/toolgate.js as an executable, with the launcher's memory
// settings), the floor through its script. Resolves once each prints its URL.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface RunningServer {
  name: string;
  url: string;
  pid: number;
  /** From spawn to the URL being printed (the server listens), in milliseconds. */
  readyMs: number;
  stop(): Promise<void>;
}

/**
 * toolgate as an operator runs it in production: NODE_ENV=production, quiet logs (warnings only, so
 * no access log), rate limits off (0 = off) so the load is measured, not refused.
 */
export const TOOLGATE_ENV = {
  NODE_ENV: "production",
  LOG_LEVEL: "warn",
  TOOLGATE_RATE_LIMIT_PER_TOKEN: "0",
  TOOLGATE_RATE_LIMIT_ANONYMOUS: "0",
};

const ADMIN_TOKEN = `tg_bench_admin_${"x".repeat(32)}`;

/** `toolgate serve` as the benchmark runs it; `env` adds settings (TOOLGATE_READ_CACHE_MB); `bin`: another build's command. */
export function startToolgate(databaseUrl: string, env: Record<string, string> = {}, bin = "bin/toolgate.js"): Promise<RunningServer> {
  return start("toolgate", bin, ["serve", "--port", "0", "--host", "127.0.0.1"], {
    ...TOOLGATE_ENV,
    ...env,
    TOOLGATE_DATABASE_URL: databaseUrl,
    TOOLGATE_ADMIN_TOKEN: ADMIN_TOKEN,
  });
}

export function startFloor(databaseUrl: string): Promise<RunningServer> {
  return start("floor", process.execPath, ["--import", "tsx", "bench/floor/server.ts", databaseUrl], { NODE_ENV: "production" });
}

function start(name: string, command: string, args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<RunningServer> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env } });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${name} ${reason}:\n${output}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    child.once("exit", (code, signal) => fail(`exited before it was ready (${code ?? signal})`));
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/[\d.:]+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.stdout.removeAllListeners("data");
      child.stdout.resume();
      resolve({ name, url, pid: child.pid!, readyMs: performance.now() - started, stop: () => stop(child) });
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
