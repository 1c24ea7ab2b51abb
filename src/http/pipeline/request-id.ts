// Every response carries an x-request-id: the client's own when it is a plausible id, else a new one.
import { randomUUID } from "node:crypto";
import { withHeader, type Middleware } from "./middleware.js";

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function requestIdFor(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Every answer names its request. */
export const requestIdHeader: Middleware = async (_request, exchange, next) => withHeader(await next(), "x-request-id", exchange.requestId);
