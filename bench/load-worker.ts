// The load generator, in its own process so it never shares an event loop with what it measures:
// receives a LoadJob over IPC, runs autocannon, answers a LoadResult.
import autocannon from "autocannon";
import { cpuMillis, postgresCpuMillis } from "./proc.js";
import type { LoadJob, LoadResult } from "./loader.js";

/** CPU per request is taken between these fractions of the run, when as many requests are in flight at both ends. */
const STEADY_FROM = 0.15;
const STEADY_TO = 0.95;

/** One autocannon request whose every build takes the list's next request, whichever connection asks. */
function sharedSequence(list: LoadJob["requests"], start = 0): autocannon.Request[] {
  let next = start;
  return [
    {
      setupRequest: (request) => {
        const { method, path, headers, body } = list[next++ % list.length]!;
        return { ...request, method, path, headers: { ...request.headers, ...headers }, body: body ?? "" };
      },
    },
  ];
}

function run(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    let responses = 0;
    let steady: { cpuMs: number; databaseCpuMs: number; loaderCpuMs: number; at: number; responses: number } | undefined;
    let cpuPerRequestMs: number | null = null;
    let databaseCpuPerRequestMs: number | null = null;
    let loaderCpuShare: number | null = null;
    const timers: NodeJS.Timeout[] = [];
    const databaseCpu = () => (job.postgresDatabase === undefined ? 0 : postgresCpuMillis(job.postgresDatabase));
    const options = {
      url: job.url,
      connections: job.connections,
      timeout: job.timeoutSeconds,
      requests: job.sharedSequence ? sharedSequence(job.requests, job.sequenceStart) : job.requests,
    };
    const instance = autocannon(
      job.amount === undefined ? { ...options, duration: job.durationSeconds } : { ...options, amount: job.amount },
      (error, result) => {
        for (const timer of timers) clearTimeout(timer);
        if (error) return reject(error);
        resolve({
          requests: result.requests.total,
          durationSeconds: result.duration,
          requestsPerSecond: result.requests.total / result.duration,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          non2xx: result.non2xx,
          socketErrors: result.errors,
          cpuPerRequestMs,
          loaderCpuShare,
          ...(job.postgresDatabase === undefined ? {} : { databaseCpuPerRequestMs }),
        });
      },
    );
    instance.on("response", () => (responses += 1));
    if (job.amount !== undefined) return;
    const at = (fraction: number, sample: () => void) => timers.push(setTimeout(sample, job.durationSeconds * 1000 * fraction));
    at(
      STEADY_FROM,
      () => (steady = { cpuMs: cpuMillis(job.pid), databaseCpuMs: databaseCpu(), loaderCpuMs: cpuMillis(process.pid), at: performance.now(), responses }),
    );
    at(STEADY_TO, () => {
      if (!steady) return;
      loaderCpuShare = (cpuMillis(process.pid) - steady.loaderCpuMs) / (performance.now() - steady.at);
      if (responses > steady.responses) {
        cpuPerRequestMs = (cpuMillis(job.pid) - steady.cpuMs) / (responses - steady.responses);
        if (job.postgresDatabase !== undefined) databaseCpuPerRequestMs = (databaseCpu() - steady.databaseCpuMs) / (responses - steady.responses);
      }
    });
  });
}

process.on("message", (job: LoadJob) => {
  run(job).then(
    (result) => process.send!({ ok: true, result }),
    (error: unknown) => process.send!({ ok: false, error: String(error) }),
  );
});
