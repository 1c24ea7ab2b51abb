// `npm run bench`: starts toolgate on a fresh SQLite file (or TOOLGATE_BENCH_DATABASE=postgresql),
// seeds a realistic environment and measures the hot read and write paths over real HTTP.
// Options (env): BENCH_SECONDS (default 5 per scenario), BENCH_CONCURRENCY (default 8), BENCH_GRANTS (default 50).
import { randomUUID } from "node:crypto";
import { loadConfig } from "../src/config.js";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "../src/db/scratch-database.js";
import { createAccount, issueToken } from "../src/domain/accounts.js";
import { createEnvironment } from "../src/domain/environments.js";
import { applyChanges } from "../src/domain/publications.js";
import { gitLite } from "../src/demo/definitions/git-lite.js";
import { startService } from "../src/service.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const grantCount = Number(process.env.BENCH_GRANTS ?? 50);
const provider = (process.env.TOOLGATE_BENCH_DATABASE ?? "sqlite") as DatabaseProvider;

const scratch = await createScratchDatabase(provider);
const service = await startService(loadConfig({}, { databaseUrl: scratch.url, port: 0, logLevel: "silent", adminToken: "b".repeat(40) }));
const db = service.db;
const owner = await createAccount(db, "system", { name: "bench", email: "bench@example.test", plan: "unlimited" });
const { secret } = await issueToken(db, "system", { accountId: owner.id, name: "bench" });
const environment = await createEnvironment(db, "system", { accountId: owner.id, name: "bench" });
const releaseIds: string[] = [];
for (let index = 0; index < grantCount + 1; index += 1) {
  const name = `tool-${String(index).padStart(3, "0")}`;
  const applied = await applyChanges(db, owner, environment.id, {
    publications: [{ name, definition: gitLite(name, "1.0.0"), source: { kind: "component", componentId: randomUUID(), componentRevision: 1, componentName: name } }],
    grantReconciliation: { creations: [], deletions: [] },
  });
  releaseIds.push(applied.releases[0]!.id);
}
const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(service.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  await response.arrayBuffer();
  if (response.status >= 400) throw new Error(`${method} ${path} → ${response.status}`);
  return response;
};
for (const releaseId of releaseIds.slice(0, grantCount)) {
  await call("POST", `/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId }, automatic: false });
}
const grantId = (await (await fetch(`${service.url}/v1/envs/${environment.id}/tool-middlewares`, { headers })).json()).values[0].grant.id as string;

const nestedQuery = `query ($id: UUID!) { environment(id: $id) { name activeGrants { uuid release { name version owner { name } } } } }`;
const scenarios: Array<[string, () => Promise<unknown>]> = [
  ["GET /healthz (no database)", () => call("GET", "/healthz")],
  ["GET /v1/environment-tool-middleware-grants/:id", () => call("GET", `/v1/environment-tool-middleware-grants/${grantId}`)],
  [`GET /v1/envs/:id/tool-middlewares (${grantCount} grants)`, () => call("GET", `/v1/envs/${environment.id}/tool-middlewares`)],
  ["GET /v1/tool-releases/:id", () => call("GET", `/v1/tool-releases/${releaseIds[0]}`)],
  ["POST /v1/envs/:id/tool-middlewares (idempotent re-create)", () =>
    call("POST", `/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: releaseIds[0] }, automatic: false })],
  [`POST /graphql environment → ${grantCount} grants → release → owner`, () =>
    call("POST", "/graphql", { query: nestedQuery, variables: { id: environment.id } })],
];

console.log(`toolgate benchmark: ${provider}, ${concurrency} concurrent clients, ${seconds}s per scenario, node ${process.version}`);
console.log("| scenario | requests/s | p50 ms | p99 ms |\n|---|---:|---:|---:|");
for (const [name, scenario] of scenarios) {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        await scenario();
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const quantile = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
  console.log(`| ${name} | ${Math.round(latencies.length / seconds)} | ${quantile(0.5)} | ${quantile(0.99)} |`);
}
await service.stop();
await scratch.drop();
