// A second toolgate, as its own process (`toolgate serve`), on a database another test service
// already uses: what a replica behind a load balancer is.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { once } from "node:events";

const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(PROJECT_ROOT, "node_modules/.bin/tsx");

export interface ChildService {
  url: string;
  process: ChildProcess;
  /** Everything it printed, for failure messages. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startChildService(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildService> {
  const child = spawn(TSX, ["src/cli/main.ts", "serve", "--port", "0", "--database-url", databaseUrl, "--log-level", "warn"], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`toolgate exited with ${code} before listening:\n${output}`)));
  });
  return {
    url,
    process: child,
    output: () => output,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await once(child, "exit");
      return code as number | null;
    },
  };
}
