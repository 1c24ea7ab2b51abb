// `npx tsx bench/sequential.ts [sqlite|postgresql] [scenario …]`: seeds the benchmark's data set,
// starts toolgate and the floor as `npm run bench` does, and sends each scenario's requests one at a
// time from this process, printing each server's CPU ms per request (from /proc) over two rounds.
// Without concurrency neither server queues nor collects garbage under pressure, and the load
// generator cannot be the bottleneck: under `npm run bench` the floor's list of 50 saturates
// autocannon (loader CPU ~100 %), which makes that scenario's req/s ratio flatter toolgate.
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { FULL_DATASET, seedDataset } from "./dataset.js";
import { cpuMillis } from "./proc.js";
import { SCENARIOS } from "./scenarios.js";
import { startFloor, startToolgate, type RunningServer } from "./servers.js";

const [provider = "sqlite", ...scenarioIds] = process.argv.slice(2);
if (provider !== "sqlite" && provider !== "postgresql") throw new Error(`unknown database ${provider}: sqlite or postgresql`);
const scenarios = SCENARIOS.filter((scenario) => scenarioIds.length === 0 || scenarioIds.includes(scenario.id));

const scratch = await createScratchDatabase(provider as DatabaseProvider);
try {
  await migrateDatabase(scratch.url);
  const db = await openDatabase(scratch.url);
  const { subject } = await seedDataset(db, FULL_DATASET).finally(() => db.$disconnect());
  const servers: [string, RunningServer][] = [
    ["toolgate", await startToolgate(scratch.url)],
    ["floor", await startFloor(scratch.url)],
  ];
  try {
    for (const scenario of scenarios) {
      const requests = scenario.requests(subject);
      const count = scenario.id === "grant-list" ? 150 : 1500;
      for (let round = 1; round <= 2; round++) {
        const costs: string[] = [];
        for (const [name, server] of servers) {
          const send = async (index: number) => {
            const request = requests[index % requests.length]!;
            // fetch asks for gzip and br by default; the load generator asks for no coding, and the floor compresses nothing.
            const headers = { ...request.headers, "accept-encoding": "identity" };
            const response = await fetch(server.url + request.path, { method: request.method, headers, body: request.body });
            await response.arrayBuffer();
            if (response.status !== 200) throw new Error(`${name} ${request.method} ${request.path}: ${response.status}`);
          };
          for (let index = 0; index < 50; index++) await send(index);
          const before = cpuMillis(server.pid);
          for (let index = 0; index < count; index++) await send(index);
          costs.push(`${name} ${((cpuMillis(server.pid) - before) / count).toFixed(2)}`);
        }
        console.log(`${scenario.id} (${provider}), round ${round}: CPU ms/req ${costs.join(", ")}`);
      }
    }
  } finally {
    for (const [, server] of servers) await server.stop();
  }
} finally {
  await scratch.drop();
}
