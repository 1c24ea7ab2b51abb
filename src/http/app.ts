// The fetch handler: request ids and access logs around an itty-router table that sends /graphql
// to Yoga and /v1/* to the REST routes.
import { randomUUID } from "node:crypto";
import { Router, type IRequest } from "itty-router";
import type { GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import type { Database } from "../db/client.js";
import { createContext } from "../graphql/context.js";
import { maskError } from "../graphql/error-codes.js";
import { errorResponse, errorResponseFor } from "./errors.js";
import { runInRequestScope } from "./request-scope.js";
import { prepareRoutes, runRoute } from "./rest/executor.js";
import type { RestRoute } from "./rest/route.js";
import { createGraphQLHandler } from "./yoga.js";

export interface AppOptions {
  db: Database;
  schema: GraphQLSchema;
  routes: readonly RestRoute[];
  logger: Logger;
  introspection: boolean;
  graphiqlToken?: string | undefined;
  /** Answers /readyz; false while shutting down. */
  isReady(): boolean;
}

/** /readyz answers within this even when the database hangs (a partition): load balancers time out too. */
export const READINESS_PING_TIMEOUT_MS = 1500;

export type FetchHandler = (request: Request) => Promise<Response>;

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function createApp(options: AppOptions): FetchHandler {
  const { db, schema, logger } = options;
  const yoga = createGraphQLHandler({ schema, logger, introspection: options.introspection, graphiqlToken: options.graphiqlToken });
  const contextFor = (requestId: string) => (request: Request) => createContext({ db, logger }, request, requestId);
  const prepared = prepareRoutes(schema, options.routes);

  const router = Router<IRequest, [requestId: string]>();
  router.get("/healthz", () => Response.json({ status: "ok" }));
  router.get("/readyz", async () => {
    if (!options.isReady()) return Response.json({ status: "shutting-down" }, { status: 503 });
    return (await answersWithin(db.$queryRawUnsafe("SELECT 1"), READINESS_PING_TIMEOUT_MS))
      ? Response.json({ status: "ready" })
      : Response.json({ status: "database-unavailable" }, { status: 503 });
  });
  router.all("/graphql", (request, requestId) => yoga.fetch(request as unknown as Request, { requestId, createContext: contextFor(requestId) }));
  for (const route of prepared) {
    router[route.route.method.toLowerCase() as "get" | "post" | "delete"](route.route.path, async (request, requestId) =>
      runRoute(schema, route, request, await contextFor(requestId)(request as unknown as Request)),
    );
  }
  const allowedMethods = methodsByPath(options.routes);
  router.all("*", (request) => {
    const allowed = allowedMethods(new URL(request.url).pathname);
    if (allowed.length > 0) {
      return errorResponseFor("METHOD_NOT_ALLOWED", `method ${request.method} not allowed; use ${allowed.join(", ")}`, { allow: allowed.join(", ") });
    }
    return errorResponseFor("NOT_FOUND", `no route for ${request.method} ${new URL(request.url).pathname}`);
  });

  return async (request) => {
    const started = performance.now();
    const incoming = request.headers.get("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    let response: Response;
    try {
      response = (await runInRequestScope(requestId, () => router.fetch(request, requestId))) as Response;
    } catch (error) {
      // E.g. the database failing while the token is authenticated: the same translation as resolvers get.
      response = errorResponse(maskError(error, (original) => logger.error({ err: original, requestId }, "unhandled error")));
    }
    response = withHeader(response, "x-request-id", requestId);
    const url = new URL(request.url);
    logger.info(
      { requestId, method: request.method, path: url.pathname, status: response.status, durationMs: Math.round((performance.now() - started) * 100) / 100 },
      "request",
    );
    return response;
  };
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

/** For 405: which methods the route table offers for a path. */
function methodsByPath(routes: readonly RestRoute[]): (path: string) => string[] {
  const patterns = routes.map((route) => ({
    method: route.method,
    regex: new RegExp(`^${route.path.replace(/:[A-Za-z]+/g, "[^/]+")}/?$`),
  }));
  return (path) => [...new Set(patterns.filter((pattern) => pattern.regex.test(path)).map((pattern) => pattern.method))];
}
