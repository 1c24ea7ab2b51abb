// `npm run bench -- --scenario writes`: toolgate against the floor (bench/floor/writes.ts) on writes.
// The harness drives them itself (not autocannon: a deletion needs the id its creation answered):
// each of N connections is an async loop that grants a release by id (POST
// /v1/envs/{id}/tool-middlewares) and deletes that grant again (DELETE
// /v1/environment-tool-middleware-grants/{id}), so plan limits never fill and every request is one
// committed change with its event. Two variants: every connection in its own account's environment
// (no lock shared), and every connection in one environment (all writes behind its lock); a third,
// apply, sends grant reconciliations of several changes each to POST …/tool-middlewares/apply. The
// server's CPU (and on PostgreSQL the database's) is read from /proc over the steady window after
// a warm-up; runs interleave floor, toolgate, floor, toolgate, … See docs/performance.md.
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { median, untilIdle, type LoadSettings } from "./measure.js";
import { cpuMillis, postgresCpuByProcess, postgresCpuSince, rssBytes } from "./proc.js";
import { startFloor, startToolgate, type RunningServer } from "./servers.js";
import { seedTenantsDatabase, type TenantsSeed, type TenantsShape } from "./tenants-dataset.js";

/** The issue's target: the floor's CPU per write over toolgate's. */
export const WRITES_TARGET = 0.5;

export type WritesServerId = "floor" | "toolgate";
const WRITES_VARIANTS = ["distinct", "oneEnvironment", "apply"] as const;
export type WritesVariantId = (typeof WRITES_VARIANTS)[number];
export const WRITES_VARIANT_TITLES: Record<WritesVariantId, string> = {
  distinct: "each connection its own account's environment",
  oneEnvironment: "every connection in one environment",
  apply: "apply: one reconciliation of 3 grant changes per request, each connection its own environment",
};

export interface WritesRun {
  writes: number;
  seconds: number;
  writesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  firstErrors: string[];
  cpuPerWriteMs: number | null;
  databaseCpuPerWriteMs: number | null;
  /** The harness's own CPU over the window, as a share of one core. */
  harnessCpuShare: number;
}

export interface WritesServerMeasurement {
  writesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  cpuPerWriteMs: number | null;
  databaseCpuPerWriteMs: number | null;
  /** The floor's CPU per write over this server's (toolgate only). */
  cpuRatio: number | null;
  harnessCpuShare: number;
  runs: WritesRun[];
}

export interface WritesResult {
  database: DatabaseProvider;
  dataset: TenantsSeed["counts"];
  seedSeconds: number;
  measureSeconds: number;
  connections: number;
  variants: Array<{ id: WritesVariantId; title: string; servers: Record<WritesServerId, WritesServerMeasurement> }>;
  rssAfterRunMb: Record<WritesServerId, number>;
}

export interface WritesOptions {
  postgresUrl: string;
  load: LoadSettings;
}

type Log = (line: string) => void;

/** One connection's loop: whose token, which environment, which release; for `apply`, the environment's seeded grants. */
interface Target {
  token: string;
  environmentId: string;
  releaseId: string;
  /** The environment's automatic seeded grants: what a reconciliation may delete. */
  seededGrants?: Array<{ id: string; releaseId: string }>;
}

/** Grants of each writes environment: every third is automatic (0 and 3), so an apply makes 3 changes (those two and the spare's). */
const SEEDED_GRANTS = 5;

/**
 * One account per connection (at least 10), each with one environment and its spare release (5 KB,
 * granted nowhere): `distinct` grants each account's spare in its own environment; `oneEnvironment`
 * has account 0 grant every account's spare (grant by id crosses accounts) in its environment.
 */
export function writesShape(connections: number): TenantsShape {
  return { accounts: Math.max(10, connections), environmentsPerAccount: 1, releasesPerAccount: SEEDED_GRANTS, grantsPerEnvironment: SEEDED_GRANTS };
}

export function writeTargets(seed: TenantsSeed, variant: WritesVariantId, connections: number): Target[] {
  const owner = seed.accounts[0]!;
  return Array.from({ length: connections }, (_, index) => {
    const account = seed.accounts[index]!;
    if (variant === "oneEnvironment") return { token: owner.token, environmentId: owner.environmentIds[0]!, releaseId: account.spareReleaseId };
    const environmentId = account.environmentIds[0]!;
    const own = { token: account.token, environmentId, releaseId: account.spareReleaseId };
    if (variant === "distinct") return own;
    return {
      ...own,
      seededGrants: seed.keys.grants
        .filter((grant) => grant.environmentId === environmentId && grant.automatic)
        .map(({ id, releaseId }) => ({ id, releaseId })),
    };
  });
}

interface Tally {
  writes: number;
  errors: number;
  firstErrors: string[];
  latenciesMs: number[];
}

/** Runs the loops against `url` until `stop` resolves; each loop ends after its current create+delete pair. */
export async function writeLoops(url: string, targets: readonly Target[], stop: Promise<void>, tally: Tally): Promise<void> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const send = async (target: Target, method: "POST" | "DELETE", path: string, body?: string): Promise<string | undefined> => {
    const started = performance.now();
    try {
      const response = await fetch(url + path, {
        method,
        // fetch asks for gzip by default; the floor never compresses, nor does the reads' load generator ask.
        headers: {
          authorization: `Bearer ${target.token}`,
          "accept-encoding": "identity",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
      tally.writes += 1;
      tally.latenciesMs.push(performance.now() - started);
      return text;
    } catch (error) {
      tally.errors += 1;
      if (tally.firstErrors.length < 3) tally.firstErrors.push(String(error));
      return undefined;
    }
  };
  const byId = (releaseId: string) => ({ release: { type: "ById", releaseId } });
  // A reconciliation deletes only automatic grants, so it creates automatic ones.
  const reconciliation = (creations: string[], deletions: string[]) =>
    JSON.stringify({ grantReconciliation: { creations: creations.map((id) => ({ ...byId(id), automatic: true })), deletions }, publications: [] });
  /** Apply: the spare granted and the seeded grants deleted, then the seeded grants restored and the spare's deleted. */
  const applyLoop = async (target: Target, seeded: Array<{ id: string; releaseId: string }>) => {
    const path = `/v1/envs/${target.environmentId}/tool-middlewares/apply`;
    while (!stopped) {
      const applied = await send(
        target,
        "POST",
        path,
        reconciliation(
          [target.releaseId],
          seeded.map((grant) => grant.id),
        ),
      );
      if (applied === undefined) continue;
      const spareGrantId = (JSON.parse(applied) as { grants: Array<{ grant: { id: string } }> }).grants[0]!.grant.id;
      while (
        (await send(
          target,
          "POST",
          path,
          reconciliation(
            seeded.map((grant) => grant.releaseId),
            [spareGrantId],
          ),
        )) === undefined &&
        !stopped
      );
    }
  };
  await Promise.all(
    targets.map(async (target) => {
      if (target.seededGrants) return applyLoop(target, target.seededGrants);
      const body = JSON.stringify(byId(target.releaseId));
      while (!stopped) {
        const created = await send(target, "POST", `/v1/envs/${target.environmentId}/tool-middlewares`, body);
        if (created === undefined) continue;
        const grantId = (JSON.parse(created) as { grant: { id: string } }).grant.id;
        await send(target, "DELETE", `/v1/environment-tool-middleware-grants/${grantId}`);
      }
    }),
  );
}

/** A warm-up lasts --warmup seconds and at least this many writes (up to the longest run): JIT and statement caches warm. */
export const WARMUP_WRITES = 300;

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);

/** Warm-up (see WARMUP_WRITES), then the measured window: writes, latencies and CPU between its two samples. */
async function runOnce(server: RunningServer, targets: readonly Target[], load: LoadSettings, postgresDatabase: string | undefined): Promise<WritesRun> {
  const tally: Tally = { writes: 0, errors: 0, firstErrors: [], latenciesMs: [] };
  let stop!: () => void;
  const loops = writeLoops(server.url, targets, new Promise<void>((resolve) => (stop = resolve)), tally);
  const databaseCpu = () => (postgresDatabase === undefined ? new Map<number, number>() : postgresCpuByProcess(postgresDatabase));
  const warmupStarted = performance.now();
  await new Promise((resolve) => setTimeout(resolve, load.warmupSeconds * 1000));
  while (tally.writes < WARMUP_WRITES && performance.now() - warmupStarted < load.maxRunSeconds * 1000)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const before = {
    at: performance.now(),
    cpu: cpuMillis(server.pid),
    database: databaseCpu(),
    harness: process.cpuUsage(),
    writes: tally.writes,
    latencies: tally.latenciesMs.length,
    errors: tally.errors,
  };
  await new Promise((resolve) => setTimeout(resolve, load.durationSeconds * 1000));
  const seconds = (performance.now() - before.at) / 1000;
  const writes = tally.writes - before.writes;
  const cpu = cpuMillis(server.pid) - before.cpu;
  const database = postgresCpuSince(before.database, databaseCpu());
  const harness = process.cpuUsage(before.harness);
  const latencies = tally.latenciesMs.slice(before.latencies).sort((a, b) => a - b);
  const errors = tally.errors - before.errors;
  stop();
  await loops;
  await untilIdle(server.pid);
  return {
    writes,
    seconds,
    writesPerSecond: writes / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    errors,
    firstErrors: tally.firstErrors,
    cpuPerWriteMs: writes > 0 ? cpu / writes : null,
    databaseCpuPerWriteMs: postgresDatabase !== undefined && writes > 0 ? database / writes : null,
    harnessCpuShare: (harness.user + harness.system) / 1000 / (seconds * 1000),
  };
}

/** --settle: the server's first seconds of load, each variant's writes in turn, not measured. */
async function settle(server: RunningServer, seed: TenantsSeed, load: LoadSettings): Promise<void> {
  for (const variant of WRITES_VARIANTS) {
    const tally: Tally = { writes: 0, errors: 0, firstErrors: [], latenciesMs: [] };
    const stop = new Promise<void>((resolve) => setTimeout(resolve, (load.settleSeconds * 1000) / WRITES_VARIANTS.length));
    await writeLoops(server.url, writeTargets(seed, variant, load.connections), stop, tally);
  }
  await untilIdle(server.pid);
}

function summarize(runs: WritesRun[]): WritesServerMeasurement {
  const known = (values: Array<number | null>) => values.filter((value): value is number => value !== null);
  const cpu = known(runs.map((run) => run.cpuPerWriteMs));
  const database = known(runs.map((run) => run.databaseCpuPerWriteMs));
  return {
    writesPerSecond: median(runs.map((run) => run.writesPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    cpuPerWriteMs: cpu.length > 0 ? median(cpu) : null,
    databaseCpuPerWriteMs: database.length > 0 ? median(database) : null,
    cpuRatio: null,
    harnessCpuShare: median(runs.map((run) => run.harnessCpuShare)),
    runs,
  };
}

export async function benchWrites(provider: DatabaseProvider, options: WritesOptions, log: Log): Promise<WritesResult> {
  const { load } = options;
  const shape = writesShape(load.connections);
  const scratch = await createScratchDatabase(provider, options.postgresUrl);
  const servers: RunningServer[] = [];
  try {
    log(`[${provider} writes] seeding ${shape.accounts} accounts …`);
    const { seed, seconds: seedSeconds } = await seedTenantsDatabase(scratch.url, provider, shape);
    log(`[${provider} writes] seeded in ${seedSeconds.toFixed(1)} s: ${JSON.stringify(seed.counts)}`);
    const floor = await startFloor(scratch.url);
    servers.push(floor);
    const toolgate = await startToolgate(scratch.url);
    servers.push(toolgate);
    const measured: Record<WritesServerId, RunningServer> = { floor, toolgate };
    const postgresDatabase = provider === "postgresql" ? decodeURIComponent(new URL(scratch.url).pathname.slice(1)) : undefined;

    if (load.settleSeconds > 0) {
      for (const id of ["floor", "toolgate"] as const) {
        log(`[${provider} writes] ${id} settles: ${load.settleSeconds} s of every variant's writes`);
        await settle(measured[id], seed, load);
      }
    }
    const measureStarted = performance.now();
    const variants: WritesResult["variants"] = [];
    for (const variant of WRITES_VARIANTS) {
      const targets = writeTargets(seed, variant, load.connections);
      const samples: Record<WritesServerId, WritesRun[]> = { floor: [], toolgate: [] };
      for (let run = 1; run <= load.runs; run++) {
        for (const id of ["floor", "toolgate"] as const) {
          const sample = await runOnce(measured[id], targets, load, postgresDatabase);
          samples[id].push(sample);
          log(
            `  ${variant} run ${run}/${load.runs} ${id}: ${sample.writesPerSecond.toFixed(1)} writes/s, CPU ${sample.cpuPerWriteMs?.toFixed(2) ?? "–"} ms/write` +
              `${postgresDatabase === undefined ? "" : `, db ${sample.databaseCpuPerWriteMs?.toFixed(2) ?? "–"} ms/write`}, p99 ${sample.p99Ms.toFixed(1)} ms, ` +
              `harness ${Math.round(sample.harnessCpuShare * 100)}% CPU, errors ${sample.errors}${sample.firstErrors[0] ? ` (${sample.firstErrors[0]})` : ""}`,
          );
        }
      }
      const servers = { floor: summarize(samples.floor), toolgate: summarize(samples.toolgate) };
      const floorCpu = servers.floor.cpuPerWriteMs;
      const toolgateCpu = servers.toolgate.cpuPerWriteMs;
      servers.toolgate.cpuRatio = floorCpu && toolgateCpu ? floorCpu / toolgateCpu : null;
      variants.push({ id: variant, title: WRITES_VARIANT_TITLES[variant], servers });
    }
    return {
      database: provider,
      dataset: seed.counts,
      seedSeconds,
      measureSeconds: (performance.now() - measureStarted) / 1000,
      connections: load.connections,
      variants,
      rssAfterRunMb: { floor: rssBytes(floor.pid) / 2 ** 20, toolgate: rssBytes(toolgate.pid) / 2 ** 20 },
    };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await scratch.drop();
  }
}
