// A fetch Response written to node:http. A body in hand (byte-body.ts: every buffered read, every
// GraphQL answer over POST) is written as it is, its chunks in one writev; anything else (event streams, HEAD,
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
  const { chunks } = known;
  if (chunks.length <= 1) return void response.end(chunks.length === 1 ? asBuffer(chunks[0]!) : undefined);
  // Corked, the chunks leave in one writev; end() uncorks.
  response.cork();
  for (const chunk of chunks) response.write(asBuffer(chunk));
  response.end();
}

const asBuffer = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
