// A seeded fuzz run of 10,000 requests over every /v1 route and /graphql against a real server:
// no answer is a 5xx, every answer is JSON, the server stays up, the database is unchanged, and
// memory comes back. Writes are impossible by construction: requests come from anonymous clients,
// forged tokens, a stranger and a viewer (who may read and validate but never write), so the
// database must be byte-identical after the run. Reproduce a failure with FUZZ_SEED=<seed>.
// Memory: the live heap after a full GC must come back within 20% of where it started.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { REST_ROUTES } from "../../src/http/rest/routes.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = 10_000;
const CONCURRENCY = 8;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Every row of every table, sorted, as one string. */
async function dumpDatabase(db: Database): Promise<string> {
  const models = Object.keys(db).filter((key) => !key.startsWith("$") && !key.startsWith("_") && typeof (db as any)[key]?.findMany === "function");
  const tables = await Promise.all(
    models.map(async (model) => {
      const rows = ((await (db as any)[model].findMany()) as unknown[]).map((row) => JSON.stringify(row, (_, value) => (typeof value === "bigint" ? String(value) : value)));
      return `${model}:\n${rows.sort().join("\n")}`;
    }),
  );
  return tables.join("\n\n");
}

function fuzzRequests(world: World, seed: number): FuzzRequest[] {
  const ids = {
    environmentId: [world.environment.id],
    grantId: [] as string[],
    releaseId: [] as string[],
    accountId: [world.owner.account.id, world.viewer.account.id, world.stranger.account.id],
  };
  const extra = (world as unknown as { fuzzIds: { grantId: string; releaseId: string } }).fuzzIds;
  ids.grantId.push(extra.grantId);
  ids.releaseId.push(extra.releaseId);
  const anyId = fc.oneof(
    fc.constantFrom(...Object.values(ids).flat()),
    fc.uuid(),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
    fc.constantFrom("%", "%zz", "%00", "..", "%E0%A4%A", "x".repeat(300)),
  );
  const token = fc.constantFrom<string | undefined>(undefined, world.stranger.token, world.viewer.token, world.viewer.token, "tg_forged", "Basic x", "");
  const jsonBody = fc.oneof(
    fc.constant(undefined),
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
    fc.string({ maxLength: 60 }),
    fc.record({ release: fc.record({ type: fc.constantFrom("ById", "ByCoordinates", "x"), releaseId: anyId }), automatic: fc.boolean() }).map((v) => JSON.stringify(v)),
    fc.record({ automatic: fc.oneof(fc.boolean(), fc.string()) }).map((v) => JSON.stringify(v)),
    fc
      .record({
        grantReconciliation: fc.record({ creations: fc.array(fc.record({ release: fc.record({ type: fc.constant("ById"), releaseId: anyId }), automatic: fc.boolean() }), { maxLength: 3 }), deletions: fc.array(anyId, { maxLength: 3 }) }),
        publications: fc.array(fc.record({ name: fc.constantFrom("fuzz-tool", "x"), definition: fc.jsonValue({ maxDepth: 3 }) }), { maxLength: 2 }),
      })
      .map((v) => JSON.stringify(v)),
  );
  const restRequest = fc.record({
    route: fc.constantFrom(...REST_ROUTES),
    params: fc.dictionary(fc.constantFrom("environmentId", "grantId", "releaseId", "accountId"), anyId),
    method: fc.oneof(fc.constant(""), fc.constantFrom("GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS")),
    query: fc.oneof(fc.constant(""), fc.constantFrom("?limit=1", "?limit=0", "?limit=abc", "?cursor=", "?cursor=xyz", "?lifecycle=published", "?lifecycle=%00", "?limit=2&cursor=%FF")),
    token,
    body: jsonBody,
  }).map(({ route, params, method, query, token, body }): FuzzRequest => {
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? fc.sample(anyId, { seed: name.length, numRuns: 1 })[0]!);
    return {
      method: method || route.method,
      path: path + query,
      headers: { "content-type": "application/json", ...(token === undefined ? {} : { authorization: token.startsWith("Basic") || token === "" ? token : `Bearer ${token}` }) },
      ...(body === undefined || (method || route.method) === "GET" ? {} : { body }),
    };
  });
  const documents = [
    "{ me { id name email } }",
    "query ($id: UUID!) { environment(id: $id) { id activeGrants { id release { name } } } }",
    "query ($id: UUID!) { account(id: $id) { toolReleaseList { id name } } }",
    "query ($ids: [ID!]!) { nodes(ids: $ids) { __typename } }",
    "query ($n: Int) { environments(first: $n) { nodes { id grants(first: $n) { nodes { id } } } } }",
    "mutation ($id: UUID!) { deleteGrant(id: $id) { id } }",
    "mutation ($id: UUID!) { restoreGrant(id: $id) { id } }",
    "mutation ($id: UUID!) { depublishToolRelease(id: $id) { id } }",
    "{ __schema { types { name } } }",
    "{ me { ",
    "query { nodes(ids: [\"a\", \"b\"]) { id } }",
  ];
  const graphqlRequest = fc.record({
    document: fc.oneof(fc.constantFrom(...documents), fc.string({ maxLength: 80 })),
    variables: fc.oneof(
      fc.constant(undefined),
      fc.record({ id: anyId, ids: fc.array(fc.string({ maxLength: 20 }), { maxLength: 150 }), n: fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.string()) }),
      fc.jsonValue({ maxDepth: 3 }),
    ),
    get: fc.boolean(),
    token,
    contentType: fc.constantFrom("application/json", "application/json", "application/json", "text/plain", "application/xml", "application/graphql"),
  }).map(({ document, variables, get, token, contentType }): FuzzRequest => {
    const auth: Record<string, string> = token === undefined ? {} : { authorization: token.startsWith("Basic") || token === "" ? token : `Bearer ${token}` };
    if (get) {
      const query = new URLSearchParams({ query: document, ...(variables === undefined ? {} : { variables: JSON.stringify(variables) }) });
      return { method: "GET", path: `/graphql?${query}`, headers: { accept: "application/json", ...auth } };
    }
    return { method: "POST", path: "/graphql", headers: { "content-type": contentType, accept: "application/json", ...auth }, body: JSON.stringify({ query: document, variables }) };
  });
  return fc.sample(fc.oneof({ arbitrary: restRequest, weight: 3 }, { arbitrary: graphqlRequest, weight: 2 }), { seed, numRuns: REQUESTS });
}

async function send(baseUrl: string, request: FuzzRequest): Promise<{ status: number; text: string; contentType: string | null }> {
  const response = await fetch(baseUrl + request.path, { method: request.method, headers: request.headers, body: request.body });
  return { status: response.status, text: await response.text(), contentType: response.headers.get("content-type") };
}

describeEachDatabase("fuzzing every route", (provider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider, { rateLimit: { perToken: { perSecond: 0, burst: 1 }, anonymous: { perSecond: 0, burst: 1 }, trustProxy: false } });
    world = await createWorld(service);
    const release = await world.publish(world.owner, "fuzz-tool", "1.0.0");
    const grant = await world.owner.http.post(`/v1/envs/${world.environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: release.id }, automatic: false });
    (world as unknown as { fuzzIds: unknown }).fuzzIds = { grantId: grant.body.grant.id, releaseId: release.id };
  });
  afterAll(async () => service?.stopAndDrop());

  it(`answers ${REQUESTS} generated requests (seed ${SEED}) without a 5xx, in JSON, changing nothing and giving memory back`, { timeout: 180_000 }, async () => {
    const requests = fuzzRequests(world, SEED);
    // Warm up (JIT, caches, connection pool) before measuring memory.
    for (const request of requests.slice(0, 200)) await send(service.url, request);
    const before = await dumpDatabase(service.db);
    gc();
    const memoryBefore = process.memoryUsage();

    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const request = requests[next++]!;
          const { status, text, contentType } = await send(service.url, request);
          const isJson = contentType?.startsWith("application/json") ?? false;
          const bodyAllowedEmpty = status === 204 || request.method === "OPTIONS";
          if (status >= 500 || (!bodyAllowedEmpty && !isJson) || (isJson && text.includes("    at "))) {
            failures.push(`${status} ${contentType} ${request.method} ${request.path.slice(0, 120)} ${request.body?.slice(0, 120) ?? ""} → ${text.slice(0, 200)}`);
          }
        }
      }),
    );

    expect(failures.slice(0, 10)).toEqual([]);
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    expect(await dumpDatabase(service.db)).toBe(before);
    gc();
    const memoryAfter = process.memoryUsage();
    const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
    console.info(
      `[fuzz ${provider}] seed ${SEED}: ${requests.length} requests; heap after GC ${mib(memoryBefore.heapUsed)} → ${mib(memoryAfter.heapUsed)} MiB, rss ${mib(memoryBefore.rss)} → ${mib(memoryAfter.rss)} MiB`,
    );
    // The server runs in this worker, beside the client and vitest, so RSS also counts their memory and
    // pages V8 has freed but not returned to the OS; the heap that survives a full GC is what a leak grows.
    expect(memoryAfter.heapUsed).toBeLessThanOrEqual(memoryBefore.heapUsed * 1.2);
  });
});
