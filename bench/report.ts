// What a benchmark run prints (one Markdown table) and keeps (bench/results/<date>.json).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import type { SeedSummary } from "./dataset.js";
import type { LoadSettings, ScenarioMeasurement, ServerMeasurement } from "./measure.js";
import { WRITES_TARGET, type WritesResult } from "./writes.js";
import { TENANT_SERVER_TITLES, TENANTS_TARGETS, type TenantServerId, type TenantServerMeasurement, type TenantsResult } from "./tenants.js";

/** The issue's target for the server's RSS after the run. */
export const RSS_TARGET_MB = 200;

export interface DatabaseResult {
  database: DatabaseProvider;
  dataset: Omit<SeedSummary, "subject">;
  seedSeconds: number;
  /** From the identity check to the last scenario's last run. */
  measureSeconds: number;
  /** From spawning `toolgate serve` on the seeded (existing, migrated) database to its listening banner. */
  /** The median of toolgateReadyRunsMs: spawn to banner on the seeded database. */
  toolgateReadyMs: number;
  toolgateReadyRunsMs: number[];
  floorReadyMs: number;
  identityCheckedRequests: number;
  scenarios: ScenarioMeasurement[];
  rssAfterRunMb: { toolgate: number; floor: number };
}

export interface BenchResults {
  date: string;
  commit: string;
  machine: { cpus: number; cpuModel: string; node: string; loadAverageBefore: number[]; loadAverageAfter: number[] };
  settings: LoadSettings;
  /** toolgate's settings that differ by run: TOOLGATE_READ_CACHE_MB, or "default". */
  toolgate?: { readCacheMb: number | "default" };
  startup: { helpMs: number; helpSamplesMs: number[] };
  databases: DatabaseResult[];
  /** `--scenario tenants`: the many-tenant scenario, per database. */
  tenants?: TenantsResult[];
  /** `--scenario writes`: grant-and-delete loops against the floor's writes, per database. */
  writes?: WritesResult[];
  /** The whole `npm run bench`, seeding and start-ups included. */
  totalSeconds: number;
}

const mb = (bytes: number) => bytes / (1024 * 1024);
const rateOf = (value: number) => (value >= 100 ? Math.round(value).toString() : value.toFixed(1));
const ms = (value: number) => (value >= 100 ? Math.round(value).toString() : value.toFixed(1));
const cpu = (value: number | null) => (value === null ? "–" : value >= 10 ? value.toFixed(1) : value.toFixed(2));

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function serverCells(server: ServerMeasurement): string[] {
  return [
    rateOf(server.requestsPerSecond),
    ms(server.p50Ms),
    ms(server.p99Ms),
    String(server.errors),
    cpu(server.cpuPerRequestMs),
    Math.round(mb(server.rssBytes)).toString(),
    server.loaderCpuShare === null ? "–" : `${Math.round(server.loaderCpuShare * 100)}%`,
  ];
}

export function formatTable(databases: DatabaseResult[]): string {
  const lines = [
    row(["db", "scenario", "server", "req/s", "p50 ms", "p99 ms", "errors", "CPU ms/req", "RSS MB", "loader CPU", "toolgate/floor", "CPU ratio", "target"]),
    row(["---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]),
  ];
  for (const result of databases) {
    for (const scenario of result.scenarios) {
      const verdict = scenario.ratio >= scenario.target ? "" : " ✗";
      const cpuRatio = scenario.cpuRatio === null ? "–" : scenario.cpuRatio.toFixed(2);
      lines.push(row([result.database, scenario.title, "floor", ...serverCells(scenario.floor), "", "", ""]));
      lines.push(
        row([
          result.database,
          scenario.title,
          "toolgate",
          ...serverCells(scenario.toolgate),
          `${scenario.ratio.toFixed(2)}${verdict}`,
          cpuRatio,
          `≥ ${scenario.target}`,
        ]),
      );
    }
    const { toolgate, floor } = result.rssAfterRunMb;
    const verdict = toolgate < RSS_TARGET_MB ? "" : " ✗";
    lines.push(
      row([
        result.database,
        "server RSS after the run",
        "toolgate",
        "",
        "",
        "",
        "",
        "",
        `${Math.round(toolgate)}${verdict}`,
        "",
        `floor ${Math.round(floor)} MB`,
        "",
        `< ${RSS_TARGET_MB} MB`,
      ]),
    );
  }
  return lines.join("\n");
}

export function formatStartup(results: BenchResults): string {
  const ready = results.databases.map((result) => `${result.database} ${(result.toolgateReadyMs / 1000).toFixed(2)} s`).join(", ");
  return [
    `toolgate --help: ${(results.startup.helpMs / 1000).toFixed(2)} s (median of ${results.startup.helpSamplesMs.length}; target < 0.5 s)`,
    `toolgate serve ready on an existing database: ${ready} (median of 3 starts; target < 1.5 s)`,
  ].join("\n");
}

/** bench/results/<date>.json, or <date>-2.json, … when the day already has one. */
export function defaultResultsPath(directory: string, date: string): string {
  for (let n = 1; ; n++) {
    const candidate = path.join(directory, `${date}${n === 1 ? "" : `-${n}`}.json`);
    if (!existsSync(candidate)) return candidate;
  }
}

export function writeResults(file: string, results: BenchResults): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const rounded = (_key: string, value: unknown) => (typeof value === "number" && !Number.isInteger(value) ? Number(value.toPrecision(4)) : value);
  writeFileSync(file, `${JSON.stringify(results, rounded, 2)}\n`);
}

const percent = (share: number | null) => (share === null ? "–" : `${Math.round(share * 100)}%`);

/** The many-tenant table: per write rate, each server's rate, CPU, CPU ratio, read-cache hits and RSS. */
export function formatTenantsTable(results: TenantsResult[]): string {
  const withDatabase = results.some((result) => result.database === "postgresql");
  const header = [
    "db",
    "writes/s",
    "server",
    "req/s",
    "p99 ms",
    "errors",
    "CPU ms/req",
    ...(withDatabase ? ["db CPU ms/req"] : []),
    "floor CPU / CPU",
    "cache hits",
    "RSS MB",
    "target",
  ];
  const lines = [row(header), row(header.map((_, index) => (index < 3 ? "---" : "---:")))];
  const serverRow = (result: TenantsResult, rate: string, id: TenantServerId, server: TenantServerMeasurement, target: number | undefined) => {
    const ratio = server.cpuRatio === null ? "–" : `${server.cpuRatio.toFixed(2)}${target !== undefined && server.cpuRatio < target ? " ✗" : ""}`;
    const rss = Math.round(mb(server.rssBytes));
    return row([
      result.database,
      rate,
      TENANT_SERVER_TITLES[id],
      rateOf(server.requestsPerSecond),
      ms(server.p99Ms),
      String(server.errors),
      cpu(server.cpuPerRequestMs),
      ...(withDatabase ? [cpu(server.databaseCpuPerRequestMs)] : []),
      id === "floor" ? "" : ratio,
      id === "floor" ? "" : percent(server.cacheHitShare),
      `${rss}${id !== "floor" && rss >= RSS_TARGET_MB ? " ✗" : ""}`,
      target === undefined ? "" : `≥ ${target}`,
    ]);
  };
  for (const result of results) {
    for (const rate of result.rates) {
      const targeted = rate.writesPerSecond === TENANTS_TARGETS.writesPerSecond;
      const label = `${rate.writesPerSecond} (${rate.writes.perSecondAchieved.toFixed(1)} done, ${rate.writes.errors} failed)`;
      for (const id of ["floor", "shipped", "cacheOff"] as const) {
        const server = rate.servers[id];
        if (!server) continue;
        const target = targeted ? (id === "shipped" ? TENANTS_TARGETS.shipped : id === "cacheOff" ? TENANTS_TARGETS.cacheOff : undefined) : undefined;
        lines.push(serverRow(result, label, id, server, target));
      }
    }
    for (const id of ["floor", "cacheOff"] as const) {
      const server = result.nestedDistinct[id];
      if (server) lines.push(serverRow(result, "0, nested read only, distinct environments", id, server, undefined));
    }
  }
  return lines.join("\n");
}

/** Seeding and size of the many-tenant data set, one line per database. */
export function formatTenantsDataset(results: TenantsResult[]): string {
  return results
    .map((result) => {
      const { counts, definitionBytes } = result.dataset;
      return (
        `tenants on ${result.database}: ${counts.accounts} accounts, ${counts.environments} environments, ${counts.releases} releases ` +
        `(definitions ${Math.round(definitionBytes.min / 1024)}–${Math.round(definitionBytes.max / 1024)} KB, median ${Math.round(definitionBytes.median / 1024)}), ` +
        `${counts.grants} grants, ${counts.events} events, seeded in ${result.seedSeconds.toFixed(1)} s; ${result.identityCheckedRequests} requests checked byte-identical; ` +
        `RSS after the run: floor ${Math.round(result.rssAfterRunMb.floor)} MB, toolgate ${Math.round(result.rssAfterRunMb.shipped)} MB (cache default), ${Math.round(result.rssAfterRunMb.cacheOff)} MB (cache off)`
      );
    })
    .join("\n");
}

/** The writes table: per database and variant, each server's writes/s, latency, CPU per write and the CPU ratio. */
export function formatWritesTable(results: WritesResult[]): string {
  const withDatabase = results.some((result) => result.database === "postgresql");
  const header = [
    "db",
    "variant",
    "server",
    "writes/s",
    "p50 ms",
    "p99 ms",
    "errors",
    "CPU ms/write",
    ...(withDatabase ? ["db CPU ms/write"] : []),
    "harness CPU",
    "floor CPU / CPU",
    "target",
  ];
  const lines = [row(header), row(header.map((_, index) => (index < 3 ? "---" : "---:")))];
  for (const result of results) {
    for (const variant of result.variants) {
      for (const id of ["floor", "toolgate"] as const) {
        const server = variant.servers[id];
        const ratio = server.cpuRatio === null ? "–" : `${server.cpuRatio.toFixed(2)}${server.cpuRatio < WRITES_TARGET ? " ✗" : ""}`;
        lines.push(
          row([
            result.database,
            variant.title,
            id,
            rateOf(server.writesPerSecond),
            ms(server.p50Ms),
            ms(server.p99Ms),
            String(server.errors),
            cpu(server.cpuPerWriteMs),
            ...(result.database === "postgresql" ? [cpu(server.databaseCpuPerWriteMs)] : withDatabase ? ["–"] : []),
            percent(server.harnessCpuShare),
            id === "floor" ? "" : ratio,
            id === "floor" ? "" : `≥ ${WRITES_TARGET}`,
          ]),
        );
      }
    }
  }
  return lines.join("\n");
}
