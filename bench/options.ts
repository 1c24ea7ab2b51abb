// `npm run bench -- [options]`: which databases, how long, how hard.
import { parseArgs } from "node:util";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { DEFAULT_POSTGRES_SERVER_URL } from "../scripts/scratch-database.js";
import type { LoadSettings } from "./measure.js";
import { SCENARIOS } from "./scenarios.js";
import { DEFAULT_WRITE_RATES } from "./tenants.js";

/** The many-tenant scenario (bench/tenants.ts): its own data set, so chosen by name only. */
export const TENANTS_SCENARIO = "tenants";
/** The write scenario (bench/writes.ts): its own data set, so chosen by name only. */
export const WRITES_SCENARIO = "writes";
const OWN_DATASET_SCENARIOS = [TENANTS_SCENARIO, WRITES_SCENARIO];

export const USAGE = `usage: npm run bench -- [options]

  --db sqlite|postgresql|both   database(s) to measure on (default sqlite)
  --postgres-url URL            PostgreSQL server for the scratch database
                                (default TOOLGATE_TEST_POSTGRES_URL, else ${DEFAULT_POSTGRES_SERVER_URL})
  --duration S                  seconds per measured run (default 2; longer for a server too slow
                                to answer 2 requests per connection in that time, at most 30)
  --warmup S                    seconds of warm-up per server and scenario (default 1)
  --settle S                    tenants, writes: seconds of that scenario's load each server takes once
                                after it starts, before its warm-up (default 60): V8 goes on optimizing
                                a large program's functions for about a minute under load
  --runs N                      measured runs per server and scenario; medians are reported (default 3)
  --connections N               concurrent connections (default 32)
  --scenario ID                 only this scenario (repeatable): ${SCENARIOS.map((scenario) => scenario.id).join(", ")};
                                or ${TENANTS_SCENARIO}: 40 accounts reading their own keys while others write
                                (its own data set; not part of the default run);
                                or ${WRITES_SCENARIO}: grant-and-delete loops, one per connection, against the floor's
                                writes (its own data set; not part of the default run)
  --writes R,R,…                tenants: write rates per second to measure (default ${DEFAULT_WRITE_RATES.join(",")})
  --read-cache MB               toolgate's TOOLGATE_READ_CACHE_MB (default: its own, 8); 0 measures
                                every read executed, as before the read cache
  --quick                       smoke run: 1 run of 1 s (or 1 answer per connection), short warm-up, no settling, results not written
  --out FILE                    results JSON (default bench/results/<date>.json; none for --quick)`;

export interface BenchOptions {
  databases: DatabaseProvider[];
  postgresUrl: string;
  load: LoadSettings;
  scenarioIds: string[];
  /** --scenario tenants was asked for. */
  tenants: boolean;
  /** --scenario writes was asked for. */
  writes: boolean;
  writeRates: number[];
  quick: boolean;
  /** TOOLGATE_READ_CACHE_MB for toolgate; undefined: toolgate's default. */
  readCacheMb: number | undefined;
  /** Where the results JSON goes; undefined: the default for a full run, none for a quick one. */
  out: string | undefined;
}

/** How long each tenants or writes server is loaded once before it is measured (see --settle). */
export const DEFAULT_SETTLE_SECONDS = 60;

export class OptionsError extends Error {}

function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new OptionsError(`--${name}: "${value}" is not a positive number`);
  return number;
}

function nonNegativeNumber(name: string, value: string): number {
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number) || number < 0) throw new OptionsError(`--${name}: "${value}" is not a number of 0 or more`);
  return number;
}

export function parseOptions(argv: string[]): BenchOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: "string", default: "sqlite" },
      "postgres-url": { type: "string" },
      duration: { type: "string" },
      warmup: { type: "string" },
      settle: { type: "string" },
      runs: { type: "string" },
      connections: { type: "string" },
      scenario: { type: "string", multiple: true },
      quick: { type: "boolean", default: false },
      "read-cache": { type: "string" },
      writes: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) return "help";
  const databases: Record<string, DatabaseProvider[]> = { sqlite: ["sqlite"], postgresql: ["postgresql"], both: ["sqlite", "postgresql"] };
  if (!databases[values.db]) throw new OptionsError(`--db: "${values.db}" is not one of sqlite, postgresql, both`);
  const known = SCENARIOS.map((scenario) => scenario.id);
  const unknown = (values.scenario ?? []).filter((id) => !known.includes(id) && !OWN_DATASET_SCENARIOS.includes(id));
  if (unknown.length > 0) throw new OptionsError(`--scenario: unknown ${unknown.join(", ")}; known: ${[...known, ...OWN_DATASET_SCENARIOS].join(", ")}`);
  const quick = values.quick;
  const connections = Math.round(positiveNumber("connections", values.connections, 32));
  return {
    databases: databases[values.db]!,
    postgresUrl: values["postgres-url"] ?? process.env.TOOLGATE_TEST_POSTGRES_URL ?? DEFAULT_POSTGRES_SERVER_URL,
    load: {
      connections,
      durationSeconds: positiveNumber("duration", values.duration, quick ? 1 : 2),
      warmupSeconds: values.warmup === "0" ? 0 : positiveNumber("warmup", values.warmup, quick ? 0.3 : 1),
      settleSeconds: values.settle === "0" ? 0 : positiveNumber("settle", values.settle, quick ? 0 : DEFAULT_SETTLE_SECONDS),
      runs: Math.round(positiveNumber("runs", values.runs, quick ? 1 : 3)),
      minResponses: quick ? connections : 2 * connections,
      maxRunSeconds: 30,
      timeoutSeconds: 60,
    },
    scenarioIds: values.scenario?.filter((id) => !OWN_DATASET_SCENARIOS.includes(id)) ?? known,
    tenants: values.scenario?.includes(TENANTS_SCENARIO) ?? false,
    writes: values.scenario?.includes(WRITES_SCENARIO) ?? false,
    writeRates: values.writes === undefined ? DEFAULT_WRITE_RATES : values.writes.split(",").map((rate) => nonNegativeNumber("writes", rate)),
    quick,
    readCacheMb: values["read-cache"] === undefined ? undefined : nonNegativeNumber("read-cache", values["read-cache"]),
    out: values.out,
  };
}
