// `npx tsx bench/mixed.ts [sqlite|postgresql] [writes per second]`: the nested GraphQL read under
// load (32 connections, 3 rounds of 3 s) while one client deletes and restores a grant of the read
// environment, at most N times a second (each write waits for its answer, so fewer under load), on
// toolgate with its read cache and with it off. Prints req/s, CPU per request, and the share of
// reads the cache answered: what the read cache buys when the data it keeps keeps changing.
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { FULL_DATASET, seedDataset } from "./dataset.js";
import { startLoader } from "./loader.js";
import { SCENARIOS } from "./scenarios.js";
import { startToolgate } from "./servers.js";

const provider = (process.argv[2] ?? "sqlite") as DatabaseProvider;
const writesPerSecond = Number(process.argv[3] ?? 10);
const scratch = await createScratchDatabase(provider);
await migrateDatabase(scratch.url);
const db = await openDatabase(scratch.url);
const { subject } = await seedDataset(db, FULL_DATASET);
await db.$disconnect();
const nested = SCENARIOS.find((s) => s.id === "graphql-nested")!.requests(subject);
const loader = startLoader();
const servers = [
  { name: "cache on", server: await startToolgate(scratch.url) },
  { name: "cache off", server: await startToolgate(scratch.url, { TOOLGATE_READ_CACHE_MB: "0" }) },
];
const metric = async (url: string, outcome: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(new RegExp(`toolgate_read_cache_lookups_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
};
for (const { server } of servers)
  await loader.run({ url: server.url, pid: server.pid, requests: nested, connections: 32, durationSeconds: 2, timeoutSeconds: 60 });
let deleted = false;
for (let round = 0; round < 3; round++) {
  for (const { name, server } of servers) {
    let writing = true;
    let writes = 0;
    const grantId = subject.grantIds[0]!;
    const writer = (async () => {
      while (writing) {
        const path = deleted ? `/v1/environment-tool-middleware-grants/${grantId}/restore` : `/v1/environment-tool-middleware-grants/${grantId}`;
        const response = await fetch(server.url + path, { method: deleted ? "POST" : "DELETE", headers: { authorization: `Bearer ${subject.token}` } });
        deleted = !deleted;
        if (response.status >= 300) throw new Error(`write ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
        writes += 1;
        await new Promise((resolve) => setTimeout(resolve, 1000 / writesPerSecond));
      }
    })();
    const [hits, misses] = [await metric(server.url, "hit"), await metric(server.url, "miss")];
    const result = await loader.run({ url: server.url, pid: server.pid, requests: nested, connections: 32, durationSeconds: 3, timeoutSeconds: 60 });
    writing = false;
    await writer;
    const [hitsAfter, missesAfter] = [await metric(server.url, "hit"), await metric(server.url, "miss")];
    const hitShare = hitsAfter - hits + missesAfter - misses > 0 ? (hitsAfter - hits) / (hitsAfter - hits + missesAfter - misses) : 0;
    console.log(
      `${provider} ${writesPerSecond} writes/s, ${name}: ${result.requestsPerSecond.toFixed(0)} req/s, ${result.cpuPerRequestMs?.toFixed(2)} CPU ms/req, p50 ${result.p50Ms} ms, errors ${result.non2xx + result.socketErrors}, writes ${writes}, hits ${(hitShare * 100).toFixed(1)} %`,
    );
  }
}
loader.close();
for (const { server } of servers) await server.stop();
await scratch.drop();
