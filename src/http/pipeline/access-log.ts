// The access log: one info line per request, with its id, method, path, status and duration.
import type { Logger } from "pino";
import type { Middleware } from "./middleware.js";

export function accessLog(logger: Logger): Middleware {
  return async (request, exchange, next) => {
    const response = await next();
    const durationMs = Math.round((performance.now() - exchange.started) * 100) / 100;
    logger.info({ requestId: exchange.requestId, method: request.method, path: exchange.url.pathname, status: response.status, durationMs }, "request");
    return response;
  };
}
