// A request refused for its body's size (413) may still be sending that body: closing the
// connection after the answer is cheaper than draining it.
import { withHeader, type Middleware } from "./middleware.js";

export const closeAfterRefusedBody: Middleware = async (_request, _exchange, next) => {
  const response = await next();
  return response.status === 413 ? withHeader(response, "connection", "close") : response;
};
