// One scenario measured on both servers: a warm-up each, then runs interleaved (floor, toolgate,
// floor, toolgate, …) so that a change in the machine's load hits both alike; medians of the runs.
// A run lasts long enough for a slow server to answer `minResponses` requests (at 32 connections a
// server doing 10 req/s takes over 3 s per request), and the next starts once the server is idle.
import type { Subject } from "./dataset.js";
import type { Loader, LoadResult } from "./loader.js";
import { cpuMillis, rssBytes } from "./proc.js";
import type { Scenario } from "./scenarios.js";
import type { RunningServer } from "./servers.js";

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** The tenants and writes scenarios: seconds of load each server takes once, after it starts (--settle). */
  settleSeconds: number;
  runs: number;
  /** A run is lengthened (up to maxRunSeconds) until the server's warm-up rate gives this many responses. */
  minResponses: number;
  maxRunSeconds: number;
  timeoutSeconds: number;
}

export interface RunSample extends LoadResult {
  /** The server's resident memory right after the run. */
  rssBytes: number;
}

export interface ServerMeasurement {
  runs: RunSample[];
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx responses plus socket errors, over every run. */
  errors: number;
  cpuPerRequestMs: number | null;
  loaderCpuShare: number | null;
  rssBytes: number;
}

export interface ScenarioMeasurement {
  id: string;
  title: string;
  target: number;
  floor: ServerMeasurement;
  toolgate: ServerMeasurement;
  /** toolgate's median req/s over the floor's. */
  ratio: number;
  /** The floor's CPU per request over toolgate's: the ratio both would reach if CPU-bound, whatever bounds the load. */
  cpuRatio: number | null;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function summarize(runs: RunSample[]): ServerMeasurement {
  const known = (values: (number | null)[]) => values.filter((value): value is number => value !== null);
  const cpu = known(runs.map((run) => run.cpuPerRequestMs));
  const loader = known(runs.map((run) => run.loaderCpuShare));
  return {
    runs,
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    errors: runs.reduce((sum, run) => sum + run.non2xx + run.socketErrors, 0),
    cpuPerRequestMs: cpu.length > 0 ? median(cpu) : null,
    loaderCpuShare: loader.length > 0 ? median(loader) : null,
    rssBytes: runs[runs.length - 1]!.rssBytes,
  };
}

/** Resolves once the process has used no CPU for a while: the requests of the last run are done. */
export async function untilIdle(pid: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = cpuMillis(pid);
  let quiet = 0;
  while (quiet < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuMillis(pid);
    quiet = now - last <= 10 ? quiet + 1 : 0;
    last = now;
  }
}

export async function measureScenario(
  loader: Loader,
  scenario: Scenario,
  subject: Subject,
  servers: { floor: RunningServer; toolgate: RunningServer },
  settings: LoadSettings,
  log: (line: string) => void,
): Promise<ScenarioMeasurement> {
  const requests = scenario.requests(subject);
  const load = async (server: RunningServer, run: { durationSeconds: number; amount?: number }): Promise<RunSample> => {
    const result = await loader.run({
      url: server.url,
      pid: server.pid,
      requests,
      connections: settings.connections,
      timeoutSeconds: settings.timeoutSeconds,
      ...run,
    });
    const sample = { ...result, rssBytes: rssBytes(server.pid) };
    await untilIdle(server.pid);
    return sample;
  };
  /** Warms the server up and answers its rate: timed, then topped up until every connection had an answer. */
  const warmUp = async (server: RunningServer): Promise<number> => {
    let sample = await load(server, { durationSeconds: settings.warmupSeconds });
    if (sample.requests < settings.connections) sample = await load(server, { durationSeconds: 0, amount: settings.connections });
    return sample.requestsPerSecond;
  };
  const order = [servers.floor, servers.toolgate];
  const runSeconds = new Map<RunningServer, number>();
  for (const server of order) {
    const rate = await warmUp(server);
    runSeconds.set(server, Math.min(settings.maxRunSeconds, Math.max(settings.durationSeconds, settings.minResponses / rate)));
  }
  const samples = new Map<RunningServer, RunSample[]>(order.map((server) => [server, []]));
  for (let run = 1; run <= settings.runs; run++) {
    for (const server of order) {
      const sample = await load(server, { durationSeconds: runSeconds.get(server)! });
      samples.get(server)!.push(sample);
      log(
        `  ${scenario.id} run ${run}/${settings.runs} ${server.name}: ${sample.requestsPerSecond.toFixed(1)} req/s over ${sample.durationSeconds.toFixed(1)} s, p99 ${sample.p99Ms} ms`,
      );
    }
  }
  const floor = summarize(samples.get(servers.floor)!);
  const toolgate = summarize(samples.get(servers.toolgate)!);
  const cpuRatio = floor.cpuPerRequestMs !== null && toolgate.cpuPerRequestMs ? floor.cpuPerRequestMs / toolgate.cpuPerRequestMs : null;
  return {
    id: scenario.id,
    title: scenario.title,
    target: scenario.target,
    floor,
    toolgate,
    ratio: toolgate.requestsPerSecond / floor.requestsPerSecond,
    cpuRatio,
  };
}
