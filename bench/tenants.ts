// `npm run bench -- --scenario tenants`: many accounts, each reading its own keys (Zipf over every
// key, a mix of REST and GraphQL reads) while the harness writes at 0, 1, 10, 50 per second. Three
// servers on the same database, measured in interleaved runs: the floor, toolgate as shipped (its
// default read cache) and toolgate with the read cache off. The writes go through a fourth process,
// another toolgate (as another replica would take them), so each measured server's CPU is its
// reads; toolgate's read cache sees each write as a new data version. See docs/performance.md.
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { fetchBytes, firstDifference, IdentityError } from "./identity.js";
import type { Loader, LoadResult } from "./loader.js";
import { median, untilIdle, type LoadSettings } from "./measure.js";
import { rssBytes } from "./proc.js";
import type { BenchRequest } from "./scenarios.js";
import { startFloor, startToolgate, type RunningServer } from "./servers.js";
import { seedTenantsDatabase, TENANTS_DATASET, type TenantsSeed, type TenantsShape } from "./tenants-dataset.js";
import { distinctNestedReads, identitySample, tenantRequests, type TenantRequest } from "./tenants-requests.js";
import { startWrites, type WriteCounts } from "./tenants-writes.js";

export const DEFAULT_WRITE_RATES = [0, 1, 10, 50];
/** The request list autocannon cycles through. */
export const TENANT_REQUESTS = 20_000;

/** The issue's floor CPU / toolgate CPU targets, at 10 writes per second. */
export const TENANTS_TARGETS = { writesPerSecond: 10, shipped: 0.5, cacheOff: 0.35 };

export type TenantServerId = "floor" | "shipped" | "cacheOff";
export const TENANT_SERVER_TITLES: Record<TenantServerId, string> = {
  floor: "floor",
  shipped: "toolgate (read cache default)",
  cacheOff: "toolgate (read cache off)",
};

export interface TenantServerMeasurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers and socket errors over every run. */
  errors: number;
  cpuPerRequestMs: number | null;
  /** PostgreSQL only: the database processes' CPU per request over the same window. */
  databaseCpuPerRequestMs: number | null;
  /** The floor's CPU per request over this server's (1 for the floor). */
  cpuRatio: number | null;
  /** toolgate: read-cache hits over every read looked up (from /metrics, over the measured runs). */
  cacheHitShare: number | null;
  rssBytes: number;
  loaderCpuShare: number | null;
  runs: Array<LoadResult & { writes: WriteCounts }>;
}

export interface TenantsRateResult {
  writesPerSecond: number;
  /** Writes answered 2xx and failed, over the measured runs of every server, and the rate achieved. */
  writes: { done: number; errors: number; perSecondAchieved: number };
  servers: Partial<Record<TenantServerId, TenantServerMeasurement>>;
}

export interface TenantsResult {
  database: DatabaseProvider;
  dataset: Omit<TenantsSeed, "accounts" | "keys">;
  seedSeconds: number;
  measureSeconds: number;
  requestList: { requests: number; kinds: Record<string, number> };
  identityCheckedRequests: number;
  rates: TenantsRateResult[];
  /** The nested read alone over distinct environments, no writes: floor and toolgate with the read cache off. */
  nestedDistinct: Partial<Record<TenantServerId, TenantServerMeasurement>>;
  rssAfterRunMb: Record<TenantServerId, number>;
}

export interface TenantsOptions {
  postgresUrl: string;
  load: LoadSettings;
  writeRates: number[];
  shape?: TenantsShape;
}

type Log = (line: string) => void;

async function cacheLookups(server: RunningServer): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const lookups: Record<string, number> = {};
  for (const match of text.matchAll(/^toolgate_read_cache_lookups_total\{outcome="(\w+)"\} (\d+(?:\.\d+)?)$/gm)) lookups[match[1]!] = Number(match[2]);
  return lookups;
}

/** Every request of `requests` answers 200 and the same bytes from both; lists hold the environment's grants. */
export async function verifyTenantIdentity(
  floorUrl: string,
  toolgateUrl: string,
  requests: readonly TenantRequest[],
  grantsPerEnvironment: number,
): Promise<void> {
  const problems: string[] = [];
  for (const request of requests) {
    const [floor, toolgate] = await Promise.all([fetchBytes(floorUrl, request), fetchBytes(toolgateUrl, request)]);
    const label = `${request.kind} ${request.method} ${request.path}`;
    if (floor.status !== 200 || toolgate.status !== 200) {
      problems.push(`${label}: status ${floor.status} (floor) / ${toolgate.status} (toolgate): ${toolgate.body.subarray(0, 300).toString("utf8")}`);
    } else if (!floor.body.equals(toolgate.body)) {
      problems.push(`${label}: ${firstDifference(floor.body, toolgate.body)}`);
    } else if (request.kind === "grant-list" || request.kind === "graphql-nested") {
      const parsed = JSON.parse(toolgate.body.toString("utf8")) as { values?: unknown[]; data?: { environment: { activeGrants: unknown[] } } };
      const count = (parsed.values ?? parsed.data?.environment.activeGrants ?? []).length;
      if (count !== grantsPerEnvironment) problems.push(`${label}: ${count} grants, expected ${grantsPerEnvironment}`);
    }
    if (problems.length >= 10) break;
  }
  if (problems.length > 0) throw new IdentityError(problems);
}

export async function benchTenants(provider: DatabaseProvider, options: TenantsOptions, loader: Loader, log: Log): Promise<TenantsResult> {
  const shape = options.shape ?? TENANTS_DATASET;
  const scratch = await createScratchDatabase(provider, options.postgresUrl);
  const servers: RunningServer[] = [];
  try {
    log(
      `[${provider} tenants] seeding ${shape.accounts} accounts × ${shape.environmentsPerAccount} environments × ${shape.grantsPerEnvironment} grants, ${shape.releasesPerAccount} releases each …`,
    );
    const { seed, seconds: seedSeconds } = await seedTenantsDatabase(scratch.url, provider, shape);
    log(`[${provider} tenants] seeded in ${seedSeconds.toFixed(1)} s: ${JSON.stringify(seed.counts)}`);

    const floor = await startFloor(scratch.url);
    servers.push(floor);
    const shipped = await startToolgate(scratch.url);
    servers.push(shipped);
    const cacheOff = await startToolgate(scratch.url, { TOOLGATE_READ_CACHE_MB: "0" });
    servers.push(cacheOff);
    const writer = await startToolgate(scratch.url);
    servers.push(writer);
    const measured: Record<TenantServerId, RunningServer> = { floor, shipped, cacheOff };

    const measureStarted = performance.now();
    const requests = tenantRequests(seed, TENANT_REQUESTS);
    const kinds: Record<string, number> = {};
    for (const request of requests) kinds[request.kind] = (kinds[request.kind] ?? 0) + 1;
    const sample = identitySample(requests);
    log(`[${provider} tenants] ${requests.length} requests ${JSON.stringify(kinds)}; checking byte identity of ${sample.length} …`);
    await verifyTenantIdentity(floor.url, shipped.url, sample, shape.grantsPerEnvironment);
    await verifyTenantIdentity(floor.url, cacheOff.url, sample.slice(0, 50), shape.grantsPerEnvironment);

    const postgresDatabase = provider === "postgresql" ? decodeURIComponent(new URL(scratch.url).pathname.slice(1)) : undefined;
    const position = new Map<RunningServer, number>();
    const { load } = options;
    /** One run: reads by the load generator, writes by this process to the writer, the cache's lookups from /metrics. */
    const runOnce = async (id: TenantServerId, list: BenchRequest[], seconds: number, writesPerSecond: number) => {
      const server = measured[id];
      const before = id === "floor" ? undefined : await cacheLookups(server);
      const writes = startWrites(writer.url, seed, writesPerSecond);
      const result = await loader.run({
        url: server.url,
        pid: server.pid,
        requests: list,
        connections: load.connections,
        durationSeconds: seconds,
        timeoutSeconds: load.timeoutSeconds,
        sharedSequence: true,
        sequenceStart: position.get(server) ?? 0,
        ...(postgresDatabase === undefined ? {} : { postgresDatabase }),
      });
      const writeCounts = await writes.stop();
      position.set(server, ((position.get(server) ?? 0) + result.requests) % list.length);
      const after = id === "floor" ? undefined : await cacheLookups(server);
      const lookups =
        before && after ? Object.fromEntries(Object.keys(after).map((outcome) => [outcome, after[outcome]! - (before[outcome] ?? 0)])) : undefined;
      const sample = { ...result, writes: writeCounts, rssBytes: rssBytes(server.pid), lookups };
      await untilIdle(server.pid);
      return sample;
    };
    type Sample = Awaited<ReturnType<typeof runOnce>>;
    const summarize = (samples: Sample[]): TenantServerMeasurement => {
      const known = (values: Array<number | null | undefined>) => values.filter((value): value is number => typeof value === "number");
      const cpu = known(samples.map((sample) => sample.cpuPerRequestMs));
      const database = known(samples.map((sample) => sample.databaseCpuPerRequestMs));
      const loaderShare = known(samples.map((sample) => sample.loaderCpuShare));
      const lookups = samples.flatMap((sample) => (sample.lookups ? [sample.lookups] : []));
      const total = (outcome: string) => lookups.reduce((sum, counts) => sum + (counts[outcome] ?? 0), 0);
      const looked = total("hit") + total("miss") + total("uncacheable");
      return {
        requestsPerSecond: median(samples.map((sample) => sample.requestsPerSecond)),
        p50Ms: median(samples.map((sample) => sample.p50Ms)),
        p99Ms: median(samples.map((sample) => sample.p99Ms)),
        errors: samples.reduce((sum, sample) => sum + sample.non2xx + sample.socketErrors, 0),
        cpuPerRequestMs: cpu.length > 0 ? median(cpu) : null,
        databaseCpuPerRequestMs: database.length > 0 ? median(database) : null,
        cpuRatio: null,
        cacheHitShare: lookups.length > 0 && looked > 0 ? total("hit") / looked : null,
        rssBytes: samples[samples.length - 1]!.rssBytes,
        loaderCpuShare: loaderShare.length > 0 ? median(loaderShare) : null,
        runs: samples.map(({ rssBytes: _rss, lookups: _lookups, ...run }) => run),
      };
    };
    /** Warm-up of each server, then `runs` interleaved runs; medians. */
    const measure = async (label: string, ids: TenantServerId[], list: BenchRequest[], writesPerSecond: number) => {
      for (const id of ids) await runOnce(id, list, load.warmupSeconds, writesPerSecond);
      const samples = new Map<TenantServerId, Sample[]>(ids.map((id) => [id, []]));
      for (let run = 1; run <= load.runs; run++) {
        for (const id of ids) {
          const sample = await runOnce(id, list, load.durationSeconds, writesPerSecond);
          samples.get(id)!.push(sample);
          const hits = sample.lookups
            ? ` cache hits ${sample.lookups.hit ?? 0}/${(sample.lookups.hit ?? 0) + (sample.lookups.miss ?? 0) + (sample.lookups.uncacheable ?? 0)}`
            : "";
          const errors = sample.writes.errors > 0 ? ` (${sample.writes.firstErrors[0]})` : "";
          log(
            `  ${label} run ${run}/${load.runs} ${TENANT_SERVER_TITLES[id]}: ${sample.requestsPerSecond.toFixed(1)} req/s, CPU ${sample.cpuPerRequestMs?.toFixed(2) ?? "–"} ms/req` +
              `${sample.databaseCpuPerRequestMs === undefined ? "" : `, db ${sample.databaseCpuPerRequestMs?.toFixed(2) ?? "–"} ms/req`}, non-2xx ${sample.non2xx}${hits}, writes ${sample.writes.writes} ok ${sample.writes.errors} failed${errors}`,
          );
        }
      }
      const result: Partial<Record<TenantServerId, TenantServerMeasurement>> = {};
      for (const id of ids) result[id] = summarize(samples.get(id)!);
      const floorCpu = result.floor?.cpuPerRequestMs;
      for (const id of ids) {
        const cpu = result[id]!.cpuPerRequestMs;
        result[id]!.cpuRatio = floorCpu && cpu ? floorCpu / cpu : null;
      }
      return { result, writeCounts: [...samples.values()].flat().map((sample) => ({ ...sample.writes, seconds: sample.durationSeconds })) };
    };

    // Settling writes at the rate the targets are set at.
    const settleWrites = TENANTS_TARGETS.writesPerSecond;
    if (load.settleSeconds > 0) {
      for (const id of ["floor", "shipped", "cacheOff"] as const) {
        log(`[${provider} tenants] ${TENANT_SERVER_TITLES[id]} settles: ${load.settleSeconds} s of the mix at ${settleWrites} writes/s`);
        await runOnce(id, requests, load.settleSeconds, settleWrites);
      }
    }
    const rates: TenantsRateResult[] = [];
    for (const writesPerSecond of options.writeRates) {
      const { result, writeCounts } = await measure(`${writesPerSecond} writes/s`, ["floor", "shipped", "cacheOff"], requests, writesPerSecond);
      const done = writeCounts.reduce((sum, counts) => sum + counts.writes, 0);
      const seconds = writeCounts.reduce((sum, counts) => sum + counts.seconds, 0);
      rates.push({
        writesPerSecond,
        writes: { done, errors: writeCounts.reduce((sum, counts) => sum + counts.errors, 0), perSecondAchieved: seconds > 0 ? done / seconds : 0 },
        servers: result,
      });
    }
    const { result: nestedDistinct } = await measure("nested read, distinct environments", ["floor", "cacheOff"], distinctNestedReads(seed), 0);
    const measureSeconds = (performance.now() - measureStarted) / 1000;
    const { accounts: _accounts, keys: _keys, ...dataset } = seed;
    return {
      database: provider,
      dataset,
      seedSeconds,
      measureSeconds,
      requestList: { requests: requests.length, kinds },
      identityCheckedRequests: sample.length + 50,
      rates,
      nestedDistinct,
      rssAfterRunMb: { floor: rssBytes(floor.pid) / 2 ** 20, shipped: rssBytes(shipped.pid) / 2 ** 20, cacheOff: rssBytes(cacheOff.pid) / 2 ** 20 },
    };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await scratch.drop();
  }
}
