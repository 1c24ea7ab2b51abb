// What no handler caught (the database failing while a token is authenticated, say) is answered
// with the same translation resolvers get: one code, one status, nothing internal in the body.
import type { Logger } from "pino";
import { maskError } from "../../graphql/error-codes.js";
import { errorResponse } from "../errors.js";
import type { Middleware } from "./middleware.js";

export function errorBoundary(logger: Logger): Middleware {
  return async (_request, exchange, next) => {
    try {
      return await next();
    } catch (error) {
      return errorResponse(maskError(error, (original) => logger.error({ err: original, requestId: exchange.requestId }, "unhandled error")));
    }
  };
}
