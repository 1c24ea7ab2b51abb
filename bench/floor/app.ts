// The floor: the least a server must do to answer the benchmark's requests — node:http, the token
// checked with one prepared statement, the data read with prepared statements, JSON written by
// hand; the writes of the writes scenario (grant by id, delete a grant, apply a grant
// reconciliation) one transaction of prepared statements each (writes.ts). A yardstick for
// `npm run bench`, never a product path.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { sqliteFilePath } from "../../src/db/connection.js";
import { providerOf } from "../../src/db/database-url.js";
import { NESTED_GRAPHQL_QUERY } from "../scenarios.js";
import { openPostgresStore } from "./postgres-store.js";
import { applyResultPieces, environmentGrantsJson, grantViewListPieces, grantViewPieces, releaseJson } from "./render.js";
import { openSqliteStore } from "./sqlite-store.js";
import type { FloorActor, FloorStore } from "./store.js";
import { applySteps, createGrantSteps, deleteGrantSteps, FloorRefusal, type ApplyOutcome, type WriteOutcome } from "./writes.js";

const HEALTHZ = '{"status":"ok"}';
const UUID = "([0-9a-f-]{36})";
const GRANT_PATH = new RegExp(`^/v1/environment-tool-middleware-grants/${UUID}$`);
const RELEASE_PATH = new RegExp(`^/v1/tool-releases/${UUID}$`);
const LIST_PATH = new RegExp(`^/v1/envs/${UUID}/tool-middlewares$`);
const APPLY_PATH = new RegExp(`^/v1/envs/${UUID}/tool-middlewares/apply$`);

/**
 * JSON given in pieces is encoded piece by piece into one buffer: joining 1.4 MB of pieces into one
 * string first costs several times as much (V8 flattens the concatenation before encoding it).
 * toolgate's own encoder (src/http/rest/json-body.ts) does the same; the floor keeps its copy so
 * that a change to toolgate's cannot move the yardstick.
 */
function send(response: ServerResponse, status: number, json: string | readonly string[]): void {
  let body: string | Buffer = typeof json === "string" ? json : "";
  if (typeof json !== "string") {
    let length = 0;
    for (const piece of json) length += Buffer.byteLength(piece, "utf8");
    body = Buffer.allocUnsafe(length);
    let offset = 0;
    for (const piece of json) offset += body.write(piece, offset, "utf8");
  }
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function authenticated(store: FloorStore, request: IncomingMessage): Promise<FloorActor | undefined> {
  const secret = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
  return secret === undefined ? undefined : store.actor(createHash("sha256").update(secret).digest("hex"));
}

/** The one creation the floor knows: `{"release": {"type": "ById", "releaseId": "…"}, "automatic"?: boolean}`. */
function creationOf(text: string): { releaseId: string; automatic: boolean } | undefined {
  const body = JSON.parse(text) as { release?: { type?: unknown; releaseId?: unknown }; automatic?: unknown };
  const automatic = body.automatic ?? false;
  if (body.release?.type !== "ById" || typeof body.release.releaseId !== "string" || typeof automatic !== "boolean") return undefined;
  return { releaseId: body.release.releaseId, automatic };
}

/** The one apply the floor knows: a grant reconciliation of creations by id and deletions, no publications. */
function reconciliationOf(text: string): { creations: Array<{ releaseId: string; automatic: boolean }>; deletions: string[] } | undefined {
  const body = JSON.parse(text) as { grantReconciliation?: { creations?: unknown[]; deletions?: unknown[] }; publications?: unknown[] };
  if ((body.publications ?? []).length > 0) return undefined;
  const creations = (body.grantReconciliation?.creations ?? []).map((creation) => creationOf(JSON.stringify(creation)));
  const deletions = body.grantReconciliation?.deletions ?? [];
  if (creations.some((creation) => creation === undefined) || deletions.some((id) => typeof id !== "string")) return undefined;
  return { creations: creations as Array<{ releaseId: string; automatic: boolean }>, deletions: deletions as string[] };
}

async function sendWrite(store: FloorStore, response: ServerResponse, write: Parameters<FloorStore["write"]>[0]): Promise<void> {
  let outcome: WriteOutcome;
  try {
    outcome = (await store.write(write)) as WriteOutcome;
  } catch (error) {
    if (!(error instanceof FloorRefusal)) throw error;
    return send(response, error.status, `{"error":${JSON.stringify(error.code)}}`);
  }
  if (outcome.status === 204) {
    response.writeHead(204);
    response.end();
    return;
  }
  send(response, 200, grantViewPieces(outcome.view));
}

async function answer(store: FloorStore, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = request.url ?? "/";
  if (request.method === "GET" && path === "/healthz") return send(response, 200, HEALTHZ);
  const actor = await authenticated(store, request);
  if (!actor) return send(response, 401, '{"error":"unauthorized"}');
  const notFound = () => send(response, 404, '{"error":"not found"}');
  let match: RegExpExecArray | null;
  if (request.method === "GET" && (match = GRANT_PATH.exec(path))) {
    const row = await store.grantView(actor, match[1]!);
    return row ? send(response, 200, grantViewPieces(row)) : notFound();
  }
  if (request.method === "GET" && (match = RELEASE_PATH.exec(path))) {
    const row = await store.release(actor, match[1]!);
    return row ? send(response, 200, releaseJson(row)) : notFound();
  }
  if (request.method === "GET" && (match = LIST_PATH.exec(path))) {
    if ((await store.environmentName(actor, match[1]!)) === undefined) return notFound();
    return send(response, 200, grantViewListPieces(await store.activeGrantViews(match[1]!)));
  }
  if (request.method === "POST" && (match = LIST_PATH.exec(path))) {
    const creation = creationOf(await readBody(request));
    if (!creation) return send(response, 400, '{"error":"the floor grants by id only"}');
    return sendWrite(store, response, createGrantSteps(store.dialect, actor, match[1]!, creation.releaseId, creation.automatic));
  }
  if (request.method === "POST" && (match = APPLY_PATH.exec(path))) {
    const reconciliation = reconciliationOf(await readBody(request));
    if (!reconciliation) return send(response, 400, '{"error":"the floor applies grant reconciliations by id only"}');
    let outcome: ApplyOutcome;
    try {
      outcome = await store.write(applySteps(store.dialect, actor, match[1]!, reconciliation.creations, reconciliation.deletions));
    } catch (error) {
      if (!(error instanceof FloorRefusal)) throw error;
      return send(response, error.status, `{"error":${JSON.stringify(error.code)}}`);
    }
    return send(response, 200, applyResultPieces(outcome.views, outcome.deletedGrantIds));
  }
  if (request.method === "DELETE" && (match = GRANT_PATH.exec(path))) {
    return sendWrite(store, response, deleteGrantSteps(store.dialect, actor, match[1]!));
  }
  if (request.method === "POST" && path === "/graphql") {
    const { query, variables } = JSON.parse(await readBody(request)) as { query?: string; variables?: { id?: string } };
    // The floor knows one document; anything else would be answered wrongly, so it is refused.
    if (query !== NESTED_GRAPHQL_QUERY || typeof variables?.id !== "string") return send(response, 400, '{"error":"unknown document"}');
    const name = await store.environmentName(actor, variables.id);
    if (name === undefined) return send(response, 200, '{"data":{"environment":null}}');
    return send(response, 200, environmentGrantsJson(name, await store.activeGrantSummaries(variables.id)));
  }
  return notFound();
}

export function openFloorStore(databaseUrl: string): FloorStore {
  return providerOf(databaseUrl) === "sqlite" ? openSqliteStore(sqliteFilePath(databaseUrl)) : openPostgresStore(databaseUrl);
}

export function createFloorServer(store: FloorStore): Server {
  const server = createServer((request, response) => {
    answer(store, request, response).catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) send(response, 500, '{"error":"internal"}');
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  return server;
}
