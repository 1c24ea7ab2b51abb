// `npx tsx bench/profile.ts <scenario> [seconds] [sqlite|postgresql]`: seeds a small data set (on
// SQLite unless told; PostgreSQL at TOOLGATE_TEST_POSTGRES_URL or the default server), or the
// many-tenant data set for the scenario `tenants` (its read mix, or KIND=grant-list… alone, read
// cache off), runs toolgate
// (bin/toolgate.js serve) under --cpu-prof, loads it with the benchmark's scenario from the load
// worker, and prints where the server's CPU went (self time by function). For finding costs, not
// for measuring them: numbers come from `npm run bench`.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SourceMapConsumer, type RawSourceMap } from "source-map-js";
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { seedDataset } from "./dataset.js";
import { startLoader } from "./loader.js";
import { SCENARIOS, type BenchRequest } from "./scenarios.js";
import { TENANT_REQUESTS } from "./tenants.js";
import { seedTenantsDatabase } from "./tenants-dataset.js";
import { tenantRequests } from "./tenants-requests.js";
import { TOOLGATE_ENV } from "./servers.js";

const [scenarioId = "graphql-nested", seconds = "5", provider = "sqlite"] = process.argv.slice(2);
if (provider !== "sqlite" && provider !== "postgresql") throw new Error(`unknown database ${provider}: sqlite or postgresql`);

const scratch = await createScratchDatabase(provider);
const requests = scenarioId === "tenants" ? await tenantsLoad() : await scenarioLoad();

async function tenantsLoad(): Promise<BenchRequest[]> {
  const { seed } = await seedTenantsDatabase(scratch.url, provider as DatabaseProvider);
  const kind = process.env.KIND;
  return tenantRequests(seed, TENANT_REQUESTS).filter((request) => kind === undefined || request.kind === kind);
}

async function scenarioLoad(): Promise<BenchRequest[]> {
  const scenario = SCENARIOS.find((candidate) => candidate.id === scenarioId);
  if (!scenario) throw new Error(`unknown scenario ${scenarioId}: tenants, ${SCENARIOS.map((s) => s.id).join(", ")}`);
  await migrateDatabase(scratch.url);
  const db = await openDatabase(scratch.url);
  const { subject } = await seedDataset(db, { accounts: 1, environmentsPerAccount: 1, releasesPerAccount: 60, grants: { min: 50, max: 50 } });
  await db.$disconnect();
  return scenario.requests(subject);
}

const profileDir = mkdtempSync(path.join(os.tmpdir(), "toolgate-profile-"));
const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "bin/toolgate.js", "serve", "--port", "0"], {
  env: { ...process.env, ...TOOLGATE_ENV, TOOLGATE_DATABASE_URL: scratch.url, ...(scenarioId === "tenants" ? { TOOLGATE_READ_CACHE_MB: "0" } : {}) },
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise<string>((resolve) => {
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    const match = /http:\/\/[\d.]+:\d+/.exec(output);
    if (match) resolve(match[0]);
  });
});
const loader = startLoader();
const result = await loader.run({ url, pid: child.pid!, requests, connections: 32, durationSeconds: Number(seconds), timeoutSeconds: 60 });
loader.close();
console.log(`${scenarioId}: ${result.requestsPerSecond.toFixed(0)} req/s, ${result.cpuPerRequestMs?.toFixed(2)} CPU ms/req`);
child.kill("SIGTERM");
await new Promise((resolve) => child.once("exit", resolve));
await scratch.drop();

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"))!;
const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

/** The bundle's source maps, by script URL: samples are named by the module they were bundled from. */
const consumers = new Map<string, SourceMapConsumer | null>();
function originalOf({ url: source, lineNumber, columnNumber }: ProfileNode["callFrame"]): string | undefined {
  if (!source.startsWith("file://") || !source.includes("/dist/")) return undefined;
  let consumer = consumers.get(source);
  if (consumer === undefined) {
    const mapFile = `${fileURLToPath(source)}.map`;
    consumer = existsSync(mapFile) ? new SourceMapConsumer(JSON.parse(readFileSync(mapFile, "utf8")) as RawSourceMap) : null;
    consumers.set(source, consumer);
  }
  const original = consumer?.originalPositionFor({ line: lineNumber + 1, column: columnNumber });
  return original?.source ? `${original.source.replace(/^(\.\.\/)+/, "")}:${original.line}` : undefined;
}

/** A package (`node_modules/…`), a directory of src/, node's internals, or the engine's own entries. */
function ownerOf(where: string, functionName: string): string {
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(where)?.[1];
  if (packaged) return packaged;
  const own = /^(src\/(?:[^/]+\/)?)/.exec(where)?.[1];
  if (own) return own;
  if (where.startsWith("node:")) return "node internals";
  return functionName;
}

const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of (node as ProfileNode & { children?: number[] }).children ?? []) parents.set(child, node.id);
/** The sample's nearest frame that is a package's or src/'s: who node's internals (and GC) worked for. */
function callerOf(id: number): string | undefined {
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
    const frame = nodes.get(at)!.callFrame;
    const original = originalOf(frame);
    if (original) return ownerOf(original, frame.functionName);
    if (frame.url.includes("node_modules/")) return ownerOf(frame.url, frame.functionName);
  }
  return undefined;
}

const selfTime = new Map<string, number>();
const byOwner = new Map<string, number>();
const byCaller = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, index) => {
  const frame = nodes.get(id)!.callFrame;
  const { functionName, url: source, lineNumber } = frame;
  if (functionName === "(idle)") return;
  const where = originalOf(frame) ?? `${source.replace(/.*node_modules\//, "node_modules/").replace(/.*\/dist\//, "dist/")}:${lineNumber}`;
  const key = `${functionName || "(anonymous)"} ${where}`;
  const delta = profile.timeDeltas[index] ?? 0;
  total += delta;
  selfTime.set(key, (selfTime.get(key) ?? 0) + delta);
  const owner = ownerOf(where, functionName);
  byOwner.set(owner, (byOwner.get(owner) ?? 0) + delta);
  const caller = callerOf(id) ?? owner;
  byCaller.set(caller, (byCaller.get(caller) ?? 0) + delta);
});
const percent = (time: number) => `${((time / total) * 100).toFixed(1).padStart(5)}%`;
for (const [key, time] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) console.log(`${percent(time)}  ${key}`);
console.log("self time by package, src/ directory or engine entry:");
for (const [owner, time] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${percent(time)}  ${owner}`);
console.log("self time, node's internals charged to the package or src/ directory that called them:");
for (const [owner, time] of [...byCaller].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${percent(time)}  ${owner}`);
console.log(`profile: ${path.join(profileDir, file)}`);
