// Renders a coded error as the spec's JSON body: {code, error}, or {code, errors: [...]} for 400.
// /graphql refusals made before GraphQL runs (size, rate, method) keep GraphQL's own response shape.
import type { GraphQLError } from "graphql";
import { DomainError, type ErrorCode } from "../domain/errors.js";
import { graphQLErrorFor, type ErrorExtensions } from "../graphql/error-codes.js";

export function errorResponse(error: GraphQLError, headers: Record<string, string> = {}): Response {
  const extensions = error.extensions as unknown as ErrorExtensions;
  const status = extensions.http.status;
  const body = status === 400 ? { code: extensions.code, errors: extensions.problems ?? [error.message] } : { code: extensions.code, error: error.message };
  return Response.json(body, { status, headers: { ...headers, ...extensions.http.headers } });
}

export function errorResponseFor(code: ErrorCode, message: string, headers: Record<string, string> = {}): Response {
  return errorResponse(graphQLErrorFor(new DomainError(code, message)), headers);
}

/** A refusal on /graphql, shaped like every other /graphql answer: `{errors: [{message, extensions: {code, …}}]}`. */
export function graphqlErrorResponse(error: GraphQLError, headers: Record<string, string> = {}): Response {
  const extensions = error.extensions as unknown as ErrorExtensions;
  return Response.json({ errors: [error.toJSON()] }, { status: extensions.http.status, headers: { ...headers, ...extensions.http.headers } });
}
