// The route table: which handler answers which method and path. Health and readiness, /graphql and
// the /v1 routes (behind the API front: authentication, rate limit, read cache), /metrics when it
// shares the port, the pages about the API and GraphiQL's files; anything else is the fallback's
// (OPTIONS with `Allow`, 405 on a path served with other methods, 404 elsewhere).
import { Router, type IRequest } from "itty-router";
import type { GraphQLSchema } from "graphql";
import type { YogaServerInstance } from "graphql-yoga";
import type { Database } from "../db/client.js";
import type { Context } from "../graphql/context.js";
import type { ApiFrontOptions } from "./api/front.js";
import { apiFront } from "./api/front.js";
import { readBodyText } from "./api/body-limit.js";
import { allowedMethodsIn, methodRefusal, type AllowedMethods, type MethodRefusal } from "./api/method-refusal.js";
import { errorResponse, graphqlErrorResponse } from "./errors.js";
import type { RequestServerContext } from "./graphql-endpoint/yoga.js";
import { HEALTHZ_BODY, HEALTHZ_PATH } from "./ops/health-fast-path.js";
import { METRICS_PATH } from "./ops/metrics-endpoint.js";
import { readiness } from "./ops/readiness.js";
import { apiReferencePages } from "./pages/api-reference.js";
import { graphiqlAssetPage } from "./pages/graphiql-assets.js";
import type { Exchange, Handler } from "./pipeline/middleware.js";
import type { CompilingExecutor } from "../graphql/compiled-execution.js";
import { prepareRoutes, runRoute } from "./rest/executor.js";
import type { RestRoute } from "./rest/route.js";

export interface RouterOptions extends ApiFrontOptions {
  db: Database;
  schema: GraphQLSchema;
  routes: readonly RestRoute[];
  yoga: YogaServerInstance<RequestServerContext, Context>;
  /** Runs the REST routes' documents: the executor /graphql's Yoga runs with. */
  execute: CompilingExecutor;
  isReady(): boolean;
  /** Answers GET /metrics on this port; omitted when metrics are served on a port of their own. */
  metricsEndpoint?: ((request: Request) => Promise<Response>) | undefined;
}

export interface RoutedApp {
  /** Routes the request, noting in the exchange which route pattern answered. */
  handle: Handler;
  allowedMethods: AllowedMethods;
  refuseMethod: MethodRefusal;
  routeTable(): { method: string; path: string }[];
}

const GRAPHQL_PATH = /^\/graphql\/?$/;

export function createRouter(options: RouterOptions): RoutedApp {
  const { schema, yoga } = options;
  const front = apiFront(options);
  const router = Router<IRequest, [exchange: Exchange]>();

  // Health checks are neither authenticated nor rate limited: orchestrators poll them.
  // GET and HEAD of the exact path never get here (health-fast-path.ts); `/healthz?…` does.
  router.get(HEALTHZ_PATH, () => new Response(HEALTHZ_BODY, { headers: { "content-type": "application/json" } }));
  router.head(HEALTHZ_PATH, () => new Response(null, { status: 200 }));
  const ready = readiness(options.db, options.isReady);
  router.get("/readyz", ready);
  router.head("/readyz", ready);

  const graphql = front(
    async (request, context, body) => yoga.fetch(request, { requestId: context.requestId, createContext: async () => context, body }),
    graphqlErrorResponse,
    async (request) => (request.method === "GET" || request.method === "HEAD" || !request.body ? undefined : readBodyText(request)),
  );
  router.get("/graphql", (request, exchange) => graphql(request as unknown as Request, exchange));
  router.post("/graphql", (request, exchange) => graphql(request as unknown as Request, exchange));

  if (options.metricsEndpoint) {
    router.get(METRICS_PATH, options.metricsEndpoint);
    router.head(METRICS_PATH, options.metricsEndpoint);
  }
  for (const prepared of prepareRoutes(schema, options.routes, options.execute)) {
    const { method, path } = prepared.route;
    const rest = front((request, context) => runRoute(schema, prepared, request as unknown as IRequest, context), errorResponse);
    const handler = (request: IRequest, exchange: Exchange) => rest(request as unknown as Request, exchange);
    router[method.toLowerCase() as "get" | "post" | "delete"](path, handler);
    // HEAD runs the GET; the representation step drops the body and keeps its headers.
    if (method === "GET") router.head(path, handler);
  }
  // The pages about the API (/, /v1, /openapi.json, /docs, the icon) and GraphiQL's files: public, like the health checks.
  for (const page of [...apiReferencePages(options.routes), graphiqlAssetPage()]) {
    router.get(page.path, page.handle);
    router.head(page.path, page.handle);
  }

  const allowedMethods = allowedMethodsIn(router.routes);
  const refuseMethod = methodRefusal(allowedMethods, (path) => (GRAPHQL_PATH.test(path) ? graphqlErrorResponse : errorResponse));
  router.all("*", (request, exchange) => {
    const path = exchange.url.pathname;
    const allowed = allowedMethods(path);
    // Not authenticated: it tells no more than docs/api.md, and browsers send preflights without tokens.
    if (request.method === "OPTIONS" && allowed.length > 0) return new Response(null, { status: 204, headers: { allow: allowed.join(", ") } });
    return refuseMethod(request.method, path);
  });

  return {
    handle: async (request, exchange) => {
      try {
        return (await router.fetch(request, exchange)) as Response;
      } finally {
        // itty-router leaves the matched pattern on the request.
        exchange.route = (request as unknown as IRequest).route as string | undefined;
      }
    },
    allowedMethods,
    refuseMethod,
    routeTable: () => router.routes.map(([method, , , path]) => ({ method, path: path ?? "" })),
  };
}
