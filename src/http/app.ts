// The fetch handler: request ids and access logs around an itty-router table that sends /graphql
// to Yoga and /v1/* to the REST routes, each request authenticated and rate limited once up front.
import { Router, type IRequest } from "itty-router";
import type { GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import type { RateLimitConfig } from "../config.js";
import { dataVersionOf, type Database } from "../db/client.js";
import { DomainError } from "../domain/errors.js";
import { cachedTokenLookup } from "../domain/token-cache.js";
import { tokenLookupIn } from "../domain/tokens.js";
import { createContext, type Context } from "../graphql/context.js";
import { graphQLErrorFor, maskError } from "../graphql/error-codes.js";
import { AnswerCache, type AnswerCacheStats } from "./answer-cache.js";
import { apiReferencePages } from "./api-reference.js";
import { readBodyText } from "./body-limit.js";
import { errorResponse, graphqlErrorResponse } from "./errors.js";
import { graphiqlAssetPage } from "./graphiql-assets.js";
import { HEALTHZ_BODY, HEALTHZ_PATH, healthzFastPath, type NodeFastPath } from "./health-fast-path.js";
import { createRateLimiter } from "./rate-limit.js";
import { createRepresentation } from "./representation.js";
import { requestIdFor } from "./request-id.js";
import { runInRequestScope, type RequestScope } from "./request-scope.js";
import { createCors } from "./cors.js";
import { allowedMethodsIn, methodRefusal, type MethodRefusal } from "./method-refusal.js";
import { METRICS_PATH } from "./metrics-endpoint.js";
import { UNMATCHED_ROUTE, type RequestMetrics } from "../metrics/request-metrics.js";
import { withSecurityHeaders } from "./security-headers.js";
import { prepareRoutes, runRoute } from "./rest/executor.js";
import type { RestRoute } from "./rest/route.js";
import type { StarterVariables } from "./graphiql.js";
import { createGraphQLHandler } from "./yoga.js";

export interface AppOptions {
  db: Database;
  schema: GraphQLSchema;
  routes: readonly RestRoute[];
  logger: Logger;
  introspection: boolean;
  /** Off when omitted. */
  rateLimit?: RateLimitConfig | undefined;
  graphiqlToken?: string | undefined;
  graphiqlVariables?: StarterVariables | undefined;
  /** Answers /readyz; false while shutting down. */
  isReady(): boolean;
  /** How long a looked-up token is trusted before it is read again (0: every request reads it). */
  tokenCacheMs?: number | undefined;
  /** Memory for answers to repeated reads, valid until the next committed change (answer-cache.ts); 0 or omitted: off. */
  readCacheBytes?: number | undefined;
  // Operability (docs/deploy.md).
  /** Where each answered request is counted and timed; nowhere when omitted. */
  requestMetrics?: RequestMetrics | undefined;
  /** Answers GET /metrics on this port; omitted when metrics are served on a port of their own. */
  metricsEndpoint?: ((request: Request) => Promise<Response>) | undefined;
  /** Origins allowed to call /graphql and /v1 from a browser (`*`: any); none when omitted. */
  corsOrigins?: readonly string[] | undefined;
}

/** /readyz answers within this even when the database hangs (a partition): load balancers time out too. */
const READINESS_PING_TIMEOUT_MS = 1500;

/** On node:http, @whatwg-node/server passes the node request beside the fetch Request, in `req`. */
export type FetchHandler = (request: Request, serverContext?: object) => Promise<Response>;

/**
 * The app also tells which method and path patterns its router serves (tests hold the OpenAPI
 * document to it), answers the health check before any fetch conversion (health-fast-path.ts), and
 * refuses methods node:http cannot hand to it as its router refuses any other (node-guards.ts).
 */
export type App = FetchHandler & {
  routeTable(): { method: string; path: string }[];
  answerDirectly: NodeFastPath;
  refuseMethod: MethodRefusal;
  /** What the read cache holds and how often it answered (the metrics). */
  readCacheStats(): AnswerCacheStats;
};

const socketAddressOf = (serverContext: object | undefined): string | undefined =>
  (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req?.socket?.remoteAddress;

const GRAPHQL_METHODS = ["GET", "POST"] as const;
const GRAPHQL_PATH = /^\/graphql\/?$/;

const OFF: RateLimitConfig = { perToken: { perSecond: 0, burst: 1 }, anonymous: { perSecond: 0, burst: 1 }, trustProxy: false };

export function createApp(options: AppOptions): App {
  const { db, schema, logger } = options;
  const readCacheBytes = options.readCacheBytes ?? 0;
  const answers = new AnswerCache({ maxBytes: readCacheBytes, dataVersion: readCacheBytes > 0 ? dataVersionOf(db) : async () => "" });
  const yoga = createGraphQLHandler({
    schema,
    logger,
    introspection: options.introspection,
    graphiqlToken: options.graphiqlToken,
    graphiqlVariables: options.graphiqlVariables,
  });
  const prepared = prepareRoutes(schema, options.routes);
  const limiter = createRateLimiter(options.rateLimit ?? OFF);
  const represent = createRepresentation();
  const tokens = cachedTokenLookup(tokenLookupIn(db), { ttlMs: options.tokenCacheMs ?? 0 });

  /**
   * Authenticates once, charges the rate limit, then hands the request and its context to `handle`.
   * `refuse` renders a refusal in the surface's error shape.
   */
  const api =
    (handle: (request: Request, context: Context) => Promise<Response>, refuse: typeof errorResponse) =>
    async (request: IRequest, requestId: string, socketAddress: string | undefined): Promise<Response> => {
      try {
        const context = await createContext({ db, logger, tokens }, request as unknown as Request, requestId);
        const verdict = limiter.take(context.authentication, request as unknown as Request, socketAddress);
        if (!verdict.allowed) {
          const wait = String(verdict.retryAfterSeconds);
          return refuse(graphQLErrorFor(new DomainError("RATE_LIMITED", `too many requests; retry after ${wait} s`)), { "retry-after": wait });
        }
        return await handle(request as unknown as Request, context);
      } catch (error) {
        // E.g. the database failing while the token is authenticated: 503 in the surface's shape.
        return refuse(maskError(error, (original) => logger.error({ err: original, requestId }, "unexpected error")));
      }
    };
  const graphql = api(
    async (request, context) => {
      const body = request.method === "GET" || request.method === "HEAD" || !request.body ? undefined : await readBodyText(request);
      return answers.answer(request, context, body, () => yoga.fetch(request, { requestId: context.requestId, createContext: async () => context, body }));
    },
    graphqlErrorResponse,
  );

  const router = Router<IRequest, [requestId: string, socketAddress: string | undefined]>();
  // Health checks are neither authenticated nor rate limited: orchestrators poll them.
  // GET and HEAD of the exact path never get here (health-fast-path.ts); `/healthz?…` does.
  router.get(HEALTHZ_PATH, () => new Response(HEALTHZ_BODY, { headers: { "content-type": "application/json" } }));
  router.head(HEALTHZ_PATH, () => new Response(null, { status: 200 }));
  const readiness = async () => {
    if (!options.isReady()) return Response.json({ status: "shutting-down" }, { status: 503 });
    return (await answersWithin(db.$queryRawUnsafe("SELECT 1"), READINESS_PING_TIMEOUT_MS))
      ? Response.json({ status: "ready" })
      : Response.json({ status: "database-unavailable" }, { status: 503 });
  };
  router.get("/readyz", readiness);
  router.head("/readyz", readiness);
  for (const method of GRAPHQL_METHODS) router[method.toLowerCase() as "get" | "post"]("/graphql", graphql);
  if (options.metricsEndpoint) {
    router.get(METRICS_PATH, options.metricsEndpoint);
    router.head(METRICS_PATH, options.metricsEndpoint);
  }
  for (const route of prepared) {
    // REST bodies belong to writes, which the answer cache never keeps.
    const handler = api((request, context) => answers.answer(request, context, undefined, () => runRoute(schema, route, request as unknown as IRequest, context)), errorResponse);
    router[route.route.method.toLowerCase() as "get" | "post" | "delete"](route.route.path, handler);
    // HEAD runs the GET; the representation step below drops the body and keeps its headers.
    if (route.route.method === "GET") router.head(route.route.path, handler);
  }
  // The pages about the API (/, /v1, /openapi.json, /docs, the icon) and GraphiQL's files: public, like the health checks.
  for (const page of [...apiReferencePages(options.routes), graphiqlAssetPage()]) {
    router.get(page.path, page.handle);
    router.head(page.path, page.handle);
  }
  const allowedMethods = allowedMethodsIn(router.routes);
  const refuseMethod = methodRefusal(allowedMethods, (path) => (GRAPHQL_PATH.test(path) ? graphqlErrorResponse : errorResponse));
  router.all("*", (request) => {
    const path = new URL(request.url).pathname;
    const allowed = allowedMethods(path);
    // Not authenticated: it tells no more than docs/api.md, and browsers send preflights without tokens.
    if (request.method === "OPTIONS" && allowed.length > 0) {
      return new Response(null, { status: 204, headers: { allow: allowed.join(", ") } });
    }
    return refuseMethod(request.method, path);
  });

  const cors = createCors(options.corsOrigins ?? []);
  const requestMetrics = options.requestMetrics;

  const handler: FetchHandler = async (request, serverContext) => {
    const started = performance.now();
    const requestId = requestIdFor(request.headers.get("x-request-id"));
    const url = new URL(request.url);
    const corsApplies = cors?.covers(url.pathname) ?? false;
    const scope: RequestScope = { requestId };
    let response: Response;
    try {
      const preflight = corsApplies && request.method === "OPTIONS" ? cors!.preflight(request, allowedMethods(url.pathname)) : undefined;
      response = preflight ?? ((await runInRequestScope(scope, () => router.fetch(request, requestId, socketAddressOf(serverContext)))) as Response);
    } catch (error) {
      // E.g. the database failing while the token is authenticated: the same translation as resolvers get.
      response = errorResponse(maskError(error, (original) => logger.error({ err: original, requestId }, "unhandled error")));
    }
    response = await represent(request, response);
    response = withHeader(response, "x-request-id", requestId);
    // The refused body may still be arriving; a fresh connection is cheaper than draining it.
    if (response.status === 413) response = withHeader(response, "connection", "close");
    response = withSecurityHeaders(response);
    if (corsApplies) response = cors!.decorate(request, response);
    const durationMs = performance.now() - started;
    if (requestMetrics) {
      // itty-router leaves the matched pattern on the request; "*" is the fallback (404, 405, OPTIONS).
      const matched = (request as unknown as IRequest).route as string | undefined;
      const route = matched === undefined || matched === "*" ? UNMATCHED_ROUTE : matched;
      const operation = route === "/graphql" ? requestMetrics.operationLabel(scope.operationName) : "";
      requestMetrics.observe(route, request.method, operation, response.status, durationMs / 1000);
    }
    logger.info({ requestId, method: request.method, path: url.pathname, status: response.status, durationMs: Math.round(durationMs * 100) / 100 }, "request");
    return response;
  };
  return Object.assign(handler, {
    routeTable: () => router.routes.map(([method, , , path]) => ({ method, path: path ?? "" })),
    answerDirectly: healthzFastPath(logger, requestMetrics),
    refuseMethod,
    readCacheStats: () => answers.stats(),
  });
}

/** Whether `ping` succeeds before `timeoutMs`; a failure or a hang is "no". */
async function answersWithin(ping: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([ping.then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    // Some responses have immutable headers; copy them.
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}
