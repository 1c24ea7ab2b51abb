// node:http without fetch's conveniences: fetch decompresses bodies, adds Accept-Encoding and hides
// HEAD bodies, which is exactly what HTTP tests must see. One fresh connection per request.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes on the wire, still content-coded. */
  body: Buffer;
}

export function rawRequest(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const sized = body === undefined ? headers : { "content-length": String(Buffer.byteLength(body)), ...headers };
    const request = httpRequest(baseUrl + path, { method, headers: sized, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
    request.end(body);
  });
}
