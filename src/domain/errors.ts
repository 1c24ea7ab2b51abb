// The one error type of toolgate's domain. Every failure a client may see carries a code from
// ERROR_CODES; the status each code maps to is decided in one table (src/graphql/error-codes.ts).

export const ERROR_CODES = [
  "REQUEST_INVALID",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_MISMATCH",
  "AUTH_UNAUTHORIZED",
  "AUTH_FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "ACCOUNT_NOT_FOUND",
  "ENVIRONMENT_NOT_FOUND",
  "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND",
  "TOOL_RELEASE_NOT_FOUND",
  "REFERENCED_TOOL_RELEASE_NOT_FOUND",
  "API_TOKEN_NOT_FOUND",
  "WEBHOOK_NOT_FOUND",
  "WEBHOOK_DELIVERY_NOT_FOUND",
  "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_CONFLICT",
  "TOOL_RELEASE_LIFECYCLE_CONFLICT",
  "TOOL_RELEASE_IMMUTABLE_CONFLICT",
  "ACCOUNT_CONFLICT",
  "ENVIRONMENT_CONFLICT",
  "CONCURRENT_UPDATE",
  "DUPLICATE_TOOL_MIDDLEWARE_PUBLICATION",
  "TOOL_MIDDLEWARE_PUBLICATION_NAME_MISMATCH",
  "LIMIT_EXCEEDED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "REQUEST_HEADERS_TOO_LARGE",
  "RATE_LIMITED",
  "INTERNAL_UNKNOWN",
  "DATABASE_UNAVAILABLE",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class DomainError extends Error {
  /** For REQUEST_INVALID and the other 400 codes: every problem found, one line each. */
  readonly problems: string[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    problems: string[] = [],
  ) {
    super(message);
    this.name = "DomainError";
    this.problems = problems.length > 0 ? problems : [message];
  }
}

export const invalidRequest = (problems: string[]) =>
  new DomainError("REQUEST_INVALID", problems.length === 1 ? problems[0]! : `${problems.length} problems in the request`, problems);
export const unauthorized = (message = "missing or invalid API token") => new DomainError("AUTH_UNAUTHORIZED", message);
export const forbidden = (message: string) => new DomainError("AUTH_FORBIDDEN", message);
export const limitExceeded = (message: string) => new DomainError("LIMIT_EXCEEDED", message);
