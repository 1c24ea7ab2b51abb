// `npx tsx bench/profile.ts <scenario> [seconds] [sqlite|postgresql]`: seeds a small data set (on
// SQLite unless told; PostgreSQL at TOOLGATE_TEST_POSTGRES_URL or the default server), runs toolgate
// (bin/toolgate.js serve) under --cpu-prof, loads it with the benchmark's scenario from the load
// worker, and prints where the server's CPU went (self time by function). For finding costs, not
// for measuring them: numbers come from `npm run bench`.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { seedDataset } from "./dataset.js";
import { startLoader } from "./loader.js";
import { SCENARIOS } from "./scenarios.js";
import { TOOLGATE_ENV } from "./servers.js";

const [scenarioId = "graphql-nested", seconds = "5", provider = "sqlite"] = process.argv.slice(2);
if (provider !== "sqlite" && provider !== "postgresql") throw new Error(`unknown database ${provider}: sqlite or postgresql`);
const scenario = SCENARIOS.find((candidate) => candidate.id === scenarioId);
if (!scenario) throw new Error(`unknown scenario ${scenarioId}: ${SCENARIOS.map((s) => s.id).join(", ")}`);

const scratch = await createScratchDatabase(provider);
await migrateDatabase(scratch.url);
const db = await openDatabase(scratch.url);
const { subject } = await seedDataset(db, { accounts: 1, environmentsPerAccount: 1, releasesPerAccount: 60, grants: { min: 50, max: 50 } });
await db.$disconnect();

const profileDir = mkdtempSync(path.join(os.tmpdir(), "toolgate-profile-"));
const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "bin/toolgate.js", "serve", "--port", "0"], {
  env: { ...process.env, ...TOOLGATE_ENV, TOOLGATE_DATABASE_URL: scratch.url },
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
const result = await loader.run({ url, pid: child.pid!, requests: scenario.requests(subject), connections: 32, durationSeconds: Number(seconds), timeoutSeconds: 60 });
loader.close();
console.log(`${scenario.title}: ${result.requestsPerSecond.toFixed(0)} req/s, ${result.cpuPerRequestMs?.toFixed(2)} CPU ms/req`);
child.kill("SIGTERM");
await new Promise((resolve) => child.once("exit", resolve));
await scratch.drop();

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }
const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"))!;
const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, index) => {
  const { functionName, url: source, lineNumber } = nodes.get(id)!.callFrame;
  const where = source.replace(/.*node_modules\//, "").replace(/.*\/dist\//, "dist/");
  const key = `${functionName || "(anonymous)"} ${where}:${lineNumber}`;
  const delta = profile.timeDeltas[index] ?? 0;
  if (functionName === "(idle)") return;
  total += delta;
  selfTime.set(key, (selfTime.get(key) ?? 0) + delta);
});
for (const [key, time] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) {
  console.log(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
}
console.log(`profile: ${path.join(profileDir, file)}`);
