// The fuzz campaign shared by the fuzz tests: seeded requests over every /v1 route and /graphql,
// sent as anonymous clients, forged tokens, a stranger and a viewer (who may read and validate but
// never write), so no request can change the database; and the checks every answer must pass.
import fc from "fast-check";
import type { Database } from "../../src/db/client.js";
import { REST_ROUTES } from "../../src/http/rest/routes.js";
import type { World } from "../helpers/world.js";

export const DEFAULT_FUZZ_SEED = 20261123;

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the requests aim at: real ids (beside random ones) and the tokens of members who cannot write. */
export interface FuzzTargets {
  environmentId: string;
  grantId: string;
  releaseId: string;
  accountIds: string[];
  strangerToken: string;
  viewerToken: string;
}

/** A released tool granted to the world's environment, so the real ids lead somewhere. */
export async function prepareFuzzTargets(world: World): Promise<FuzzTargets> {
  const release = await world.publish(world.owner, "fuzz-tool", "1.0.0");
  const grant = await world.owner.http.post(`/v1/envs/${world.environment.id}/tool-middlewares`, {
    release: { type: "ById", releaseId: release.id },
    automatic: false,
  });
  return {
    environmentId: world.environment.id,
    grantId: grant.body.grant.id,
    releaseId: release.id,
    accountIds: [world.owner.account.id, world.viewer.account.id, world.stranger.account.id],
    strangerToken: world.stranger.token,
    viewerToken: world.viewer.token,
  };
}

/** Every row of every table, sorted, as one string. */
export async function dumpDatabase(db: Database): Promise<string> {
  const models = Object.keys(db).filter((key) => !key.startsWith("$") && !key.startsWith("_") && typeof (db as any)[key]?.findMany === "function");
  const tables = await Promise.all(
    models.map(async (model) => {
      const rows = ((await (db as any)[model].findMany()) as unknown[]).map((row) =>
        JSON.stringify(row, (_, value) => (typeof value === "bigint" ? String(value) : value)),
      );
      return `${model}:\n${rows.sort().join("\n")}`;
    }),
  );
  return tables.join("\n\n");
}

export function fuzzRequests(targets: FuzzTargets, seed: number, count: number): FuzzRequest[] {
  const ids = [targets.environmentId, targets.grantId, targets.releaseId, ...targets.accountIds];
  const anyId = fc.oneof(
    fc.constantFrom(...ids),
    fc.uuid(),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
    fc.constantFrom("%", "%zz", "%00", "..", "%E0%A4%A", "x".repeat(300)),
  );
  const token = fc.constantFrom<string | undefined>(undefined, targets.strangerToken, targets.viewerToken, targets.viewerToken, "tg_forged", "Basic x", "");
  const jsonBody = fc.oneof(
    fc.constant(undefined),
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
    fc.string({ maxLength: 60 }),
    fc
      .record({ release: fc.record({ type: fc.constantFrom("ById", "ByCoordinates", "x"), releaseId: anyId }), automatic: fc.boolean() })
      .map((v) => JSON.stringify(v)),
    fc.record({ automatic: fc.oneof(fc.boolean(), fc.string()) }).map((v) => JSON.stringify(v)),
    fc
      .record({
        grantReconciliation: fc.record({
          creations: fc.array(fc.record({ release: fc.record({ type: fc.constant("ById"), releaseId: anyId }), automatic: fc.boolean() }), { maxLength: 3 }),
          deletions: fc.array(anyId, { maxLength: 3 }),
        }),
        publications: fc.array(fc.record({ name: fc.constantFrom("fuzz-tool", "x"), definition: fc.jsonValue({ maxDepth: 3 }) }), { maxLength: 2 }),
      })
      .map((v) => JSON.stringify(v)),
  );
  const restRequest = fc
    .record({
      route: fc.constantFrom(...REST_ROUTES),
      params: fc.dictionary(fc.constantFrom("environmentId", "grantId", "releaseId", "accountId"), anyId),
      method: fc.oneof(fc.constant(""), fc.constantFrom("GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS")),
      query: fc.oneof(
        fc.constant(""),
        fc.constantFrom("?limit=1", "?limit=0", "?limit=abc", "?cursor=", "?cursor=xyz", "?lifecycle=published", "?lifecycle=%00", "?limit=2&cursor=%FF"),
      ),
      token,
      body: jsonBody,
    })
    .map(({ route, params, method, query, token, body }): FuzzRequest => {
      const path = route.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? fc.sample(anyId, { seed: name.length, numRuns: 1 })[0]!);
      return {
        method: method || route.method,
        path: path + query,
        headers: {
          "content-type": "application/json",
          ...(token === undefined ? {} : { authorization: token.startsWith("Basic") || token === "" ? token : `Bearer ${token}` }),
        },
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
    'query { nodes(ids: ["a", "b"]) { id } }',
  ];
  const graphqlRequest = fc
    .record({
      document: fc.oneof(fc.constantFrom(...documents), fc.string({ maxLength: 80 })),
      variables: fc.oneof(
        fc.constant(undefined),
        fc.record({ id: anyId, ids: fc.array(fc.string({ maxLength: 20 }), { maxLength: 150 }), n: fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.string()) }),
        fc.jsonValue({ maxDepth: 3 }),
      ),
      get: fc.boolean(),
      token,
      contentType: fc.constantFrom("application/json", "application/json", "application/json", "text/plain", "application/xml", "application/graphql"),
    })
    .map(({ document, variables, get, token, contentType }): FuzzRequest => {
      const auth: Record<string, string> = token === undefined ? {} : { authorization: token.startsWith("Basic") || token === "" ? token : `Bearer ${token}` };
      if (get) {
        const query = new URLSearchParams({ query: document, ...(variables === undefined ? {} : { variables: JSON.stringify(variables) }) });
        return { method: "GET", path: `/graphql?${query}`, headers: { accept: "application/json", ...auth } };
      }
      return {
        method: "POST",
        path: "/graphql",
        headers: { "content-type": contentType, accept: "application/json", ...auth },
        body: JSON.stringify({ query: document, variables }),
      };
    });
  return fc.sample(fc.oneof({ arbitrary: restRequest, weight: 3 }, { arbitrary: graphqlRequest, weight: 2 }), { seed, numRuns: count });
}

/**
 * Sends `requests` from `concurrency` clients at once; returns a line for each answer that is a 5xx,
 * not JSON (unless it may be empty), shows a stack trace or reports an internal error (whatever its
 * status: an unexpected error answered 200 is still one).
 */
export async function sendAll(baseUrl: string, requests: readonly FuzzRequest[], concurrency: number): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        const failure = await sendAndCheck(baseUrl, request);
        if (failure) failures.push(failure);
      }
    }),
  );
  return failures;
}

async function sendAndCheck(baseUrl: string, request: FuzzRequest): Promise<string | undefined> {
  const response = await fetch(baseUrl + request.path, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  const status = response.status;
  const contentType = response.headers.get("content-type");
  const isJson = contentType?.startsWith("application/json") ?? false;
  const bodyAllowedEmpty = status === 204 || request.method === "OPTIONS";
  if (status >= 500 || (!bodyAllowedEmpty && !isJson) || (isJson && (text.includes("    at ") || text.includes("INTERNAL_UNKNOWN")))) {
    return `${status} ${contentType} ${request.method} ${request.path.slice(0, 120)} ${request.body?.slice(0, 120) ?? ""} → ${text.slice(0, 200)}`;
  }
  return undefined;
}
