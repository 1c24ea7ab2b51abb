// A fetch Response written to node:http. A body in hand (byte-body.ts: every buffered read, every
// GraphQL answer over POST) is written in one call, as a Buffer; anything else (event streams, HEAD,
// 304s) goes through @whatwg-node/server's writer, which reads the body's stream chunk by chunk. Node's
// own Response has no hook for the server adapter to see bytes it was made from, so reading them back
// through a stream reader cost a stream, its reader and a promise per chunk on every answer.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendNodeResponse } from "@whatwg-node/server";
import { knownBodyOf } from "../byte-body.js";

export function sendResponse(answer: Response, response: ServerResponse, request: IncomingMessage): void | Promise<void> {
  const known = knownBodyOf(answer);
  if (!known || response.closed || response.destroyed || response.writableEnded) return sendNodeResponse(answer, response, request, true);
  response.setHeaders(answer.headers);
  response.writeHead(answer.status, answer.statusText);
  response.end(Buffer.from(known.bytes.buffer, known.bytes.byteOffset, known.bytes.byteLength));
}
