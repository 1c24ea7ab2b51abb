// `npx tsx bench/layers.ts [scenario] [requests] [sqlite|postgresql]`: one scenario's requests sent
// one after another to the app's fetch handler in this process (no sockets, no load generator),
// printing CPU and wall time per request and how much of it the SQL statements took at the driver
// adapter. For splitting a request's cost into layers; throughput comes from `npm run bench`.
// SHOW_SQL=1 also prints each statement the scenario sends, with how often per request.
// WITHOUT_DATABASE=1 answers every model read (find…) from memory after its first run, so what is
// left is the request without Prisma and the database: compare the two to split a read's cost.
// TOOLGATE_READ_CACHE_MB sets the read cache as `serve` reads it (default 8; 0: off, as
// WITHOUT_DATABASE always has it), TOOLGATE_DEFINITION_CACHE_MB the definition cache (default 24).
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { buildSchema } from "../src/graphql/schema.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/http/ops/logger.js";
import { REST_ROUTES } from "../src/http/rest/routes.js";
import { seedDataset } from "./dataset.js";
import { SCENARIOS } from "./scenarios.js";

const [scenarioId = "graphql-nested", requestCount = "2000", provider = "sqlite"] = process.argv.slice(2);
const scenario = SCENARIOS.find((candidate) => candidate.id === scenarioId);
if (!scenario) throw new Error(`unknown scenario ${scenarioId}: ${SCENARIOS.map((s) => s.id).join(", ")}`);

const scratch = await createScratchDatabase(provider as DatabaseProvider);
await migrateDatabase(scratch.url);
const seeding = await openDatabase(scratch.url);
const { subject } = await seedDataset(seeding, { accounts: 1, environmentsPerAccount: 1, releasesPerAccount: 60, grants: { min: 50, max: 50 } });
await seeding.$disconnect();

let sqlMs = 0;
let statements = 0;
const statementTexts = new Map<string, number>();
const db = await openDatabase(scratch.url, {
  observeQuery: (_kind, seconds) => {
    sqlMs += seconds * 1000;
    statements += 1;
  },
  onQuery: process.env.SHOW_SQL ? (sql) => statementTexts.set(sql, (statementTexts.get(sql) ?? 0) + 1) : undefined,
});
// As `serve` runs it in the benchmark: tokens cached, no rate limits, no access log.
const app = createApp({
  db: process.env.WITHOUT_DATABASE ? readsFromMemory(db) : db,
  schema: buildSchema(),
  routes: REST_ROUTES,
  logger: createLogger("warn"),
  introspection: false,
  isReady: () => true,
  tokenCacheMs: 5000,
  readCacheBytes: process.env.WITHOUT_DATABASE ? 0 : Number(process.env.TOOLGATE_READ_CACHE_MB ?? 8) * 1024 * 1024,
  definitionCacheBytes: Number(process.env.TOOLGATE_DEFINITION_CACHE_MB ?? 24) * 1024 * 1024,
});
const requests = scenario.requests(subject);

/** The client with every `find…` of every model answered from memory once it has run with the same arguments. */
function readsFromMemory(client: typeof db): typeof db {
  const answers = new Map<string, Promise<unknown>>();
  const models = new Map<string | symbol, unknown>();
  const remembering = (modelName: string, model: object) =>
    new Proxy(model, {
      get(target, key) {
        const method = Reflect.get(target, key) as unknown;
        if (typeof key !== "string" || !key.startsWith("find") || typeof method !== "function") return method;
        return (args: unknown) => {
          const question = `${modelName}.${key}(${JSON.stringify(args)})`;
          if (!answers.has(question)) answers.set(question, (method as (args: unknown) => Promise<unknown>).call(target, args));
          return answers.get(question);
        };
      },
    });
  return new Proxy(client, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof key !== "string" || key.startsWith("$") || typeof value !== "object" || value === null) return value;
      if (!models.has(key)) models.set(key, remembering(key, value));
      return models.get(key);
    },
  });
}
const send = async (index: number) => {
  const request = requests[index % requests.length]!;
  const response = await app(new Request(`http://toolgate${request.path}`, { method: request.method, headers: request.headers, body: request.body }));
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${request.method} ${request.path}: ${response.status} ${text}`);
};

for (let index = 0; index < 300; index++) await send(index);
sqlMs = 0;
statements = 0;
statementTexts.clear();
const count = Number(requestCount);
const cpuBefore = process.cpuUsage();
const started = performance.now();
for (let index = 0; index < count; index++) await send(index);
const wallMs = (performance.now() - started) / count;
const cpu = process.cpuUsage(cpuBefore);
const cpuMs = (cpu.user + cpu.system) / 1000 / count;
console.log(
  `${scenario.title} (${provider}): ${cpuMs.toFixed(3)} CPU ms/req, ${wallMs.toFixed(3)} wall ms/req; ` +
    `SQL at the adapter ${(sqlMs / count).toFixed(3)} ms/req in ${(statements / count).toFixed(1)} statements`,
);
for (const [sql, times] of statementTexts) console.log(`${(times / count).toFixed(1)}× ${sql}`);
await db.$disconnect();
await scratch.drop();
