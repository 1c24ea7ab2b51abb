// The one table that maps error codes to HTTP statuses, and the translation of any thrown value
// into a GraphQLError carrying `extensions.code` and `extensions.http.status`. REST responses are
// built from those extensions, so both surfaces answer every failure identically.
import { PothosValidationError } from "@pothos/core";
import { GraphQLError } from "graphql";
import { isRetryableConflict } from "../db/conflicts.js";
import { concurrentUpdate } from "../domain/write-transaction.js";
import { isDatabaseUnavailable } from "../db/unavailable.js";
import { DomainError, type ErrorCode } from "../domain/errors.js";

export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  REQUEST_INVALID: 400,
  // Automatic persisted queries (persisted-queries.ts): the hash and the query do not match.
  PERSISTED_QUERY_MISMATCH: 400,
  DUPLICATE_TOOL_MIDDLEWARE_PUBLICATION: 400,
  TOOL_MIDDLEWARE_PUBLICATION_NAME_MISMATCH: 400,
  AUTH_UNAUTHORIZED: 401,
  AUTH_FORBIDDEN: 403,
  NOT_FOUND: 404,
  // Automatic persisted queries: the hash is not (or no longer) stored; send it with the query.
  PERSISTED_QUERY_NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  ENVIRONMENT_NOT_FOUND: 404,
  ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND: 404,
  TOOL_RELEASE_NOT_FOUND: 404,
  REFERENCED_TOOL_RELEASE_NOT_FOUND: 404,
  API_TOKEN_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  WEBHOOK_DELIVERY_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_CONFLICT: 409,
  TOOL_RELEASE_LIFECYCLE_CONFLICT: 409,
  TOOL_RELEASE_IMMUTABLE_CONFLICT: 409,
  ACCOUNT_CONFLICT: 409,
  ENVIRONMENT_CONFLICT: 409,
  CONCURRENT_UPDATE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  LIMIT_EXCEEDED: 422,
  RATE_LIMITED: 429,
  REQUEST_HEADERS_TOO_LARGE: 431,
  INTERNAL_UNKNOWN: 500,
  DATABASE_UNAVAILABLE: 503,
};

/** Seconds a client should wait before retrying a 503 (the database is down or unreachable). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

export interface ErrorExtensions {
  code: ErrorCode;
  http: { status: number; headers?: Record<string, string> };
  /** Every problem of a 400, one line each. */
  problems?: string[];
}

export function graphQLErrorFor(error: DomainError, path?: GraphQLError["path"]): GraphQLError {
  const status = HTTP_STATUS_BY_CODE[error.code];
  const extensions: ErrorExtensions = { code: error.code, http: { status } };
  if (status === 401) extensions.http.headers = { "www-authenticate": 'Bearer realm="toolgate"' };
  if (status === 503) extensions.http.headers = { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) };
  if (status === 400) extensions.problems = error.problems;
  return new GraphQLError(error.message, { path, extensions: { ...extensions } });
}

/** GraphQL's own request errors (syntax, validation, variable coercion) are the client's fault. */
export function requestErrorFor(errors: readonly GraphQLError[]): GraphQLError {
  const problems = errors.map((error) => error.message);
  return graphQLErrorFor(new DomainError("REQUEST_INVALID", problems.join("; "), problems));
}

const INTERNAL_ERROR_MESSAGE = "internal server error";

/**
 * Yoga's maskError and the REST executor both call this. Known failures keep their code; anything
 * unexpected is reported by `onUnexpected` (with the original) and answered as INTERNAL_UNKNOWN.
 */
export function maskError(error: unknown, onUnexpected: (error: unknown) => void): GraphQLError {
  const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  const path = error instanceof GraphQLError ? error.path : undefined;
  if (original instanceof DomainError) return graphQLErrorFor(original, path);
  if (original instanceof GraphQLError && typeof original.extensions?.code === "string" && original.extensions.code in HTTP_STATUS_BY_CODE) {
    return original;
  }
  // Syntax, validation and variable-coercion errors have no path: the request is at fault. (Variable
  // coercion keeps the scalar's or enum's own GraphQLError as the cause.)
  if (error instanceof GraphQLError && !error.path && (!error.originalError || error.originalError instanceof GraphQLError)) {
    return requestErrorFor([error]);
  }
  const translated = translateKnownFailure(original);
  if (translated) return graphQLErrorFor(translated, path);
  onUnexpected(original);
  return graphQLErrorFor(new DomainError("INTERNAL_UNKNOWN", INTERNAL_ERROR_MESSAGE), path);
}

const DATABASE_UNAVAILABLE_MESSAGE = "the database is unavailable; retry later";

/** Failures that are not bugs: bad connection arguments, database races ("someone else changed this first") and outages. */
function translateKnownFailure(error: unknown): DomainError | undefined {
  // Pothos rejects arguments it checks itself this way (connections check theirs in pagination.ts).
  if (error instanceof PothosValidationError) return new DomainError("REQUEST_INVALID", error.message);
  if (isRetryableConflict(error)) return concurrentUpdate();
  if (isDatabaseUnavailable(error)) return new DomainError("DATABASE_UNAVAILABLE", DATABASE_UNAVAILABLE_MESSAGE);
  return undefined;
}
