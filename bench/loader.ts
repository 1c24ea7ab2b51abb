// The harness's side of the load generator: one long-lived child process (bench/load-worker.ts),
// one job at a time.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { BenchRequest } from "./scenarios.js";

export interface LoadJob {
  url: string;
  /** The server process, whose CPU time the worker samples. */
  pid: number;
  requests: BenchRequest[];
  connections: number;
  durationSeconds: number;
  /** Instead of a duration: this many requests, every one answered (warm-ups of slow servers). */
  amount?: number;
  timeoutSeconds: number;
  /**
   * One sequence shared by every connection: the connections take the list's requests in turn, so
   * the server sees the list in order (autocannon otherwise walks the whole list on each connection).
   */
  sharedSequence?: boolean;
  /** With sharedSequence: where in the list to start (a run continues where the previous one stopped). */
  sequenceStart?: number;
  /** A local PostgreSQL database: its backends' (and the server's auxiliary processes') CPU is sampled too. */
  postgresDatabase?: string;
}

export interface LoadResult {
  requests: number;
  durationSeconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  socketErrors: number;
  /** Server CPU time over requests answered in the steady middle of the run; null when none were. */
  cpuPerRequestMs: number | null;
  /**
   * The load generator's own CPU time over wall time in the same window: near 1, it was the
   * bottleneck (one core) and req/s measure it rather than the server.
   */
  loaderCpuShare: number | null;
  /** With postgresDatabase: the database processes' CPU time over the same requests. */
  databaseCpuPerRequestMs?: number | null;
}

export interface Loader {
  run(job: LoadJob): Promise<LoadResult>;
  close(): void;
}

export function startLoader(): Loader {
  const worker: ChildProcess = fork(fileURLToPath(new URL("./load-worker.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return {
    run: (job) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`load worker exited (${code})`));
        worker.once("exit", onExit);
        worker.once("message", (message: { ok: boolean; result?: LoadResult; error?: string }) => {
          worker.off("exit", onExit);
          if (message.ok) resolve(message.result!);
          else reject(new Error(`load worker: ${message.error}`));
        });
        worker.send(job);
      }),
    close: () => {
      worker.kill();
    },
  };
}
