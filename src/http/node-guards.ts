// What node:http would answer by itself, before the fetch handler runs, answered in the spec's
// error shape instead: methods the fetch API cannot represent (TRACE, TRACK) and requests node's
// parser rejects (oversized headers, malformed request lines). Without this, @whatwg-node/server
// answers TRACE with 500 and a stack trace, and node answers parse errors with an empty body.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorCode } from "../domain/errors.js";
import { errorResponseFor } from "./errors.js";
import { withSecurityHeaders } from "./security-headers.js";

/** Methods undici's Request constructor refuses (CONNECT never reaches a request listener). */
const UNREPRESENTABLE_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);

export function guardNodeServer(server: Server): void {
  const listeners = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.method && UNREPRESENTABLE_METHODS.has(req.method.toUpperCase())) {
      void writeError(res, "METHOD_NOT_ALLOWED", `method ${req.method} not allowed`);
      return;
    }
    for (const listener of listeners) listener(req, res);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket));
}

async function writeError(res: ServerResponse, code: ErrorCode, message: string): Promise<void> {
  const response = withSecurityHeaders(errorResponseFor(code, message));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(await response.text());
}

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset or timed-out connection has nobody left to answer.
  // (node's own rule: answer only while no response has started on this socket)
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [code, message]: [ErrorCode, string] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? ["REQUEST_HEADERS_TOO_LARGE", "request headers are too large"]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? ["REQUEST_INVALID", "request was not received in time"]
        : ["REQUEST_INVALID", "malformed HTTP request"];
  const response = withSecurityHeaders(errorResponseFor(code, message));
  void response.text().then((body) => {
    const status = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\n`;
    const security = [...response.headers].filter(([name]) => name !== "content-type" && name !== "content-length").map(([name, value]) => `${name}: ${value}\r\n`);
    const headers = `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${security.join("")}connection: close\r\n\r\n`;
    socket.end(status + headers + body);
  });
}
