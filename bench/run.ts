// `npm run bench`: toolgate against the floor (bench/floor/) on the benchmark's data set, scenario by
// scenario, from a separate load-generating process. See docs/performance.md.
import { execFileSync } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { FULL_DATASET, seedDataset } from "./dataset.js";
import { verifyByteIdentity } from "./identity.js";
import { startLoader, type Loader } from "./loader.js";
import { measureScenario, median, type ScenarioMeasurement } from "./measure.js";
import { OptionsError, parseOptions, USAGE, type BenchOptions } from "./options.js";
import { rssBytes } from "./proc.js";
import {
  defaultResultsPath,
  formatStartup,
  formatTable,
  formatTenantsDataset,
  formatTenantsTable,
  formatWritesTable,
  writeResults,
  type BenchResults,
  type DatabaseResult,
} from "./report.js";
import { SCENARIOS } from "./scenarios.js";
import { startFloor, startToolgate } from "./servers.js";
import { timeHelp } from "./startup.js";
import { benchTenants, type TenantsResult } from "./tenants.js";
import { benchWrites, WRITES_TARGET, type WritesResult } from "./writes.js";

const log = (line: string) => console.error(line);

async function seed(databaseUrl: string, provider: DatabaseProvider) {
  const db = await openDatabase(databaseUrl);
  try {
    const seeded = await seedDataset(db, FULL_DATASET);
    // Otherwise autovacuum visits the freshly written tables during the first scenarios.
    if (provider === "postgresql") await db.$executeRawUnsafe("VACUUM ANALYZE");
    return seeded;
  } finally {
    await db.$disconnect();
  }
}

async function benchDatabase(provider: DatabaseProvider, options: BenchOptions, loader: Loader): Promise<DatabaseResult> {
  const scratch = await createScratchDatabase(provider, options.postgresUrl);
  try {
    log(`[${provider}] seeding ${FULL_DATASET.accounts} accounts, ${FULL_DATASET.accounts * FULL_DATASET.releasesPerAccount} releases …`);
    const seedStarted = performance.now();
    await migrateDatabase(scratch.url);
    const { subject, ...dataset } = await seed(scratch.url, provider);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    log(`[${provider}] seeded in ${seedSeconds.toFixed(1)} s: ${JSON.stringify(dataset)}`);

    // Start-up is timed over three starts (two probes, then the measured server), as --help is:
    // one start right after seeding varied from 1.0 to 1.7 s on one machine.
    const readyRunsMs: number[] = [];
    for (let probe = 0; probe < 2; probe++) {
      const started = await startToolgate(scratch.url, toolgateEnv(options));
      readyRunsMs.push(started.readyMs);
      await started.stop();
    }
    const toolgate = await startToolgate(scratch.url, toolgateEnv(options));
    readyRunsMs.push(toolgate.readyMs);
    try {
      const floor = await startFloor(scratch.url);
      try {
        log(`[${provider}] toolgate ready in ${readyRunsMs.map((ms) => (ms / 1000).toFixed(2)).join(", ")} s; checking byte identity …`);
        const measureStarted = performance.now();
        const scenarios = SCENARIOS.filter((scenario) => options.scenarioIds.includes(scenario.id));
        const { requests } = await verifyByteIdentity(floor.url, toolgate.url, scenarios, subject);
        log(`[${provider}] ${requests} requests answered byte-identically; measuring`);
        const measurements: ScenarioMeasurement[] = [];
        for (const scenario of scenarios) {
          measurements.push(await measureScenario(loader, scenario, subject, { floor, toolgate }, options.load, log));
        }
        const measureSeconds = (performance.now() - measureStarted) / 1000;
        log(`[${provider}] measured in ${measureSeconds.toFixed(0)} s`);
        return {
          database: provider,
          dataset,
          seedSeconds,
          measureSeconds,
          toolgateReadyMs: median(readyRunsMs),
          toolgateReadyRunsMs: readyRunsMs,
          floorReadyMs: floor.readyMs,
          identityCheckedRequests: requests,
          scenarios: measurements,
          rssAfterRunMb: { toolgate: rssBytes(toolgate.pid) / 2 ** 20, floor: rssBytes(floor.pid) / 2 ** 20 },
        };
      } finally {
        await floor.stop();
      }
    } finally {
      await toolgate.stop();
    }
  } finally {
    await scratch.drop();
  }
}

function gitCommit(): string {
  try {
    return execFileSync("git", ["describe", "--always", "--dirty"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** The settings `--read-cache` gives toolgate; none: its defaults, as an operator starts it. */
function toolgateEnv(options: BenchOptions): Record<string, string> {
  return options.readCacheMb === undefined ? {} : { TOOLGATE_READ_CACHE_MB: String(options.readCacheMb) };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options === "help") {
    console.log(USAGE);
    return;
  }
  const loadAverageBefore = os.loadavg();
  const started = performance.now();
  log(`timing toolgate --help …`);
  const help = timeHelp(options.quick ? 1 : 3);
  const loader = startLoader();
  const databases: DatabaseResult[] = [];
  const tenants: TenantsResult[] = [];
  const writes: WritesResult[] = [];
  try {
    for (const provider of options.databases) {
      if (options.scenarioIds.length > 0) databases.push(await benchDatabase(provider, options, loader));
      if (options.tenants)
        tenants.push(await benchTenants(provider, { postgresUrl: options.postgresUrl, load: options.load, writeRates: options.writeRates }, loader, log));
      if (options.writes) writes.push(await benchWrites(provider, { postgresUrl: options.postgresUrl, load: options.load }, log));
    }
  } finally {
    loader.close();
  }
  const results: BenchResults = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "unknown", node: process.version, loadAverageBefore, loadAverageAfter: os.loadavg() },
    settings: options.load,
    toolgate: { readCacheMb: options.readCacheMb ?? "default" },
    startup: { helpMs: help.medianMs, helpSamplesMs: help.samplesMs },
    databases,
    ...(tenants.length > 0 ? { tenants } : {}),
    ...(writes.length > 0 ? { writes } : {}),
    totalSeconds: (performance.now() - started) / 1000,
  };
  const { connections, durationSeconds, runs, settleSeconds } = options.load;
  const settled = options.tenants || options.writes ? `, tenants and writes servers settled by ${settleSeconds} s of load first` : "";
  const readCache = options.readCacheMb === undefined ? "its default" : `${options.readCacheMb} MB`;
  console.log(
    `\ntoolgate vs floor — ${connections} connections, medians of ${runs} interleaved run(s) of ${durationSeconds} s, node ${process.version}, ${os.cpus().length} CPUs, toolgate's read cache ${readCache}${settled}`,
  );
  console.log(
    `load average before ${loadAverageBefore.map((n) => n.toFixed(2)).join(" ")}, after ${results.machine.loadAverageAfter.map((n) => n.toFixed(2)).join(" ")}\n`,
  );
  if (databases.length > 0) {
    console.log(formatTable(databases));
    console.log(`\n${formatStartup(results)}`);
  }
  if (tenants.length > 0) {
    console.log(
      `${databases.length > 0 ? "\n" : ""}Many tenants: reads of ${connections} connections (Zipf over every key, each with its owner's token) while the harness writes; floor CPU / CPU is the floor's CPU per request over the server's\n`,
    );
    console.log(formatTenantsTable(tenants));
    console.log(`\n${formatTenantsDataset(tenants)}`);
  }
  if (writes.length > 0) {
    console.log(
      `${databases.length + tenants.length > 0 ? "\n" : ""}Writes: ${connections} connections, each granting a release and deleting the grant again; CPU per write (a create or a delete); floor CPU / CPU is the floor's CPU per write over toolgate's (target ≥ ${WRITES_TARGET})\n`,
    );
    console.log(formatWritesTable(writes));
  }
  const out = options.out ?? (options.quick ? undefined : defaultResultsPath(fileURLToPath(new URL("results", import.meta.url)), results.date.slice(0, 10)));
  if (out) {
    writeResults(out, results);
    console.log(`results: ${out}`);
  }
  console.log(`whole run: ${results.totalSeconds.toFixed(0)} s`);
}

main().catch((error: unknown) => {
  const code = (error as { code?: string }).code;
  if (error instanceof OptionsError || code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
