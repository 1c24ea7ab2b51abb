// What node:http would answer by itself, before the fetch handler runs, answered in the spec's
// error shape instead: methods the fetch API cannot represent (TRACE, TRACK), methods node's parser
// does not know (any token HTTP does not define), and requests the parser rejects (oversized
// headers, malformed request lines). Without this, @whatwg-node/server answers TRACE with 500 and a
// stack trace, and node answers parse errors with an empty 400. A method is refused as the router
// refuses one (`refuseMethod`): 405 with `Allow` on a path the server serves, 404 elsewhere.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorCode } from "../../domain/errors.js";
import { errorResponseFor } from "../errors.js";
import type { MethodRefusal } from "../api/method-refusal.js";
import { withSecurityHeaders } from "../pipeline/security-headers.js";

/** Methods undici's Request constructor refuses (CONNECT never reaches a request listener). */
const UNREPRESENTABLE_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);

/** A request line with a method token (RFC 9110 5.6.2) and an origin-form target. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/\S*) HTTP\/1\.[01]\r?\n/;

export function guardNodeServer(server: Server, refuseMethod: MethodRefusal): void {
  const listeners = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.method && UNREPRESENTABLE_METHODS.has(req.method.toUpperCase())) {
      const path = pathOf(req.url ?? "");
      void write(res, path === undefined ? errorResponseFor("REQUEST_INVALID", "malformed request target") : refuseMethod(req.method, path));
      return;
    }
    for (const listener of listeners) listener(req, res);
  });
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => answerClientError(error, socket, refuseMethod));
}

/** The target's path, as the router matches it; undefined when it is no URL path. */
function pathOf(target: string): string | undefined {
  try {
    return new URL(target, "http://localhost").pathname;
  } catch {
    return undefined;
  }
}

async function write(res: ServerResponse, response: Response): Promise<void> {
  const secured = withSecurityHeaders(response);
  res.writeHead(secured.status, Object.fromEntries(secured.headers));
  res.end(await secured.text());
}

function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex, refuseMethod: MethodRefusal): void {
  // A reset or timed-out connection has nobody left to answer.
  // (node's own rule: answer only while no response has started on this socket)
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const response = withSecurityHeaders(refusalOf(error, refuseMethod));
  void response.text().then((body) => {
    const status = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\n`;
    const passed = [...response.headers]
      .filter(([name]) => name !== "content-type" && name !== "content-length")
      .map(([name, value]) => `${name}: ${value}\r\n`);
    // The parser gave up on this connection: nothing more can be read from it.
    const headers = `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${passed.join("")}connection: close\r\n\r\n`;
    socket.end(status + headers + body);
  });
}

function refusalOf(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, refuseMethod: MethodRefusal): Response {
  if (error.code === "HPE_INVALID_METHOD") {
    // The request line is usually whole in the packet the parser stopped at; a method it does not know is refused like any other.
    const line = REQUEST_LINE.exec(error.rawPacket?.toString("latin1") ?? "");
    const path = line ? pathOf(line[2]!) : undefined;
    if (line && path !== undefined) return refuseMethod(line[1]!, path);
  }
  const [code, message]: [ErrorCode, string] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? ["REQUEST_HEADERS_TOO_LARGE", "request headers are too large"]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? ["REQUEST_INVALID", "request was not received in time"]
        : ["REQUEST_INVALID", "malformed HTTP request"];
  return errorResponseFor(code, message);
}
