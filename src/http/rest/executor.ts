// Runs REST routes through the GraphQL schema: each route's (already parsed) document is validated
// once at start-up and executed with the same context and error mapping as /graphql, compiled once
// it has run often (src/graphql/compiled-execution.ts).
import { getOperationAST, GraphQLError, validate, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import type { IRequest } from "itty-router";
import { compilingExecutor, type CompilingExecutor } from "../../graphql/compiled-execution.js";
import type { Context } from "../../graphql/context.js";
import { maskError, requestErrorFor, type ErrorExtensions } from "../../graphql/error-codes.js";
import { noteAnswerable } from "../api/answerable.js";
import { byteResponse } from "../byte-body.js";
import { errorResponse } from "../errors.js";
import { readJsonBody } from "./body.js";
import { encodeJsonBody } from "./json-body.js";
import type { RestRoute } from "./route.js";
import { variableProblems } from "./variable-problems.js";

export interface PreparedRoute {
  route: RestRoute;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** Runs the document: graphql-js until it has run often, then the function compiled for it. */
  execute: CompilingExecutor;
}

export function prepareRoutes(schema: GraphQLSchema, routes: readonly RestRoute[], executor: CompilingExecutor = compilingExecutor()): PreparedRoute[] {
  return routes.map((route) => {
    const errors = validate(schema, route.document);
    if (errors.length > 0) throw new Error(`REST route ${route.name}: invalid document: ${errors.map((e) => e.message).join("; ")}`);
    const operation = getOperationAST(route.document);
    if (!operation) throw new Error(`REST route ${route.name}: the document must hold one operation`);
    return { route, document: route.document, operation, execute: executor };
  });
}

export async function runRoute(schema: GraphQLSchema, prepared: PreparedRoute, request: IRequest, context: Context): Promise<Response> {
  const onUnexpected = (error: unknown) => context.logger.error({ err: error, route: prepared.route.name }, "unexpected error");
  try {
    // Every /v1 operation is protected: 401 comes before anything about the request's content.
    context.actor();
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await readJsonBody(request as unknown as Request);
    const variables = prepared.route.variables({ params: request.params, query: new URL(request.url).searchParams, body });
    const problems = variableProblems(schema, prepared.operation, variables, request.params);
    if (problems.length > 0)
      return errorResponse(relocated(requestErrorFor(problems.map((problem) => new GraphQLError(problem))), prepared.route.argumentLocations));
    const args = { schema, document: prepared.document, variableValues: variables, contextValue: context };
    const result = await prepared.execute(args);
    noteAnswerable(args, result);
    if (result.errors?.length) {
      const requestErrors = result.data == null && result.errors.every((e) => !e.path);
      const first = requestErrors ? requestErrorFor(result.errors) : maskError(result.errors[0], onUnexpected);
      return errorResponse(relocated(first, prepared.route.argumentLocations));
    }
    // A result without errors has the shape the route's typed document declares.
    const responseBody = prepared.route.respond(result.data!);
    const { status } = prepared.route.contract.success;
    if (responseBody === undefined) return new Response(null, { status });
    // Bytes, not a string: undici would scan a string body for lone surrogates and encode it again.
    const encoded = encodeJsonBody(responseBody);
    return byteResponse(encoded, { status, headers: { "content-type": "application/json" } });
  } catch (error) {
    return errorResponse(maskError(error, onUnexpected));
  }
}

/** A refusal whose problems name GraphQL arguments, renamed to where the REST request carries them. */
function relocated(error: GraphQLError, locations: Record<string, string> | undefined): GraphQLError {
  const extensions = error.extensions as unknown as ErrorExtensions;
  if (!locations || !extensions.problems) return error;
  const rename = (problem: string) =>
    problem.replace(/^([\w.]+): /, (whole, argument: string) => (Object.hasOwn(locations, argument) ? `${locations[argument]}: ` : whole));
  const problems = extensions.problems.map(rename);
  return new GraphQLError(rename(error.message), { path: error.path, extensions: { ...extensions, problems } });
}
