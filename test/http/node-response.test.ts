// How an answer reaches node:http: a body in hand is written as it is, without its stream being
// read; any other body is streamed through as before. Status, headers and bytes are the same either way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byteResponse, KnownBody, knownBodyOf } from "../../src/http/byte-body.js";
import { listen, type RunningServer } from "../../src/http/server/listen.js";
import { rawRequest } from "../helpers/raw-http.js";

describe("answers written to node:http", () => {
  const bytes = Buffer.from(`{"caf\u00e9":"${"x".repeat(100_000)}"}`, "utf8");
  const sent: Response[] = [];
  let server: RunningServer;

  beforeAll(async () => {
    const answer = (request: Request): Response => {
      const path = new URL(request.url).pathname;
      const headers = { "content-type": "application/json", "x-answer": path, "content-length": String(bytes.byteLength) };
      if (path === "/in-hand") return byteResponse(bytes, { status: 201, statusText: "Made", headers });
      if (path === "/in-chunks")
        return byteResponse(new KnownBody([bytes.subarray(0, 7), bytes.subarray(7, 5000), bytes.subarray(5000)]), { status: 201, statusText: "Made", headers });
      if (path === "/streamed") {
        const chunks = [bytes.subarray(0, 1000), bytes.subarray(1000)];
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            const chunk = chunks.shift();
            if (chunk) controller.enqueue(chunk);
            else controller.close();
          },
        });
        return new Response(body, { status: 201, statusText: "Made", headers });
      }
      if (path === "/empty") return new Response(null, { status: 204 });
      throw new Error("no such answer");
    };
    const handler = Object.assign(
      async (request: Request) => {
        const response = answer(request);
        sent.push(response);
        return response;
      },
      { refuseMethod: () => new Response(null, { status: 405 }) },
    );
    server = await listen(handler, 0, "127.0.0.1");
  });
  afterAll(() => server?.close());

  it("writes a body in hand without reading it through its stream, and a streamed one by reading it, with equal status, headers and bytes", async () => {
    const inHand = await rawRequest(server.url, "GET", "/in-hand");
    const inHandResponse = sent.at(-1)!;
    const streamed = await rawRequest(server.url, "GET", "/streamed");
    for (const [answer, path] of [
      [inHand, "/in-hand"],
      [streamed, "/streamed"],
    ] as const) {
      expect(answer.status).toBe(201);
      expect(answer.headers).toMatchObject({ "content-type": "application/json", "x-answer": path, "content-length": String(bytes.byteLength) });
      expect(answer.body.equals(bytes)).toBe(true);
    }
    expect(inHandResponse.bodyUsed).toBe(false);
    expect(knownBodyOf(inHandResponse)?.bytes).toBe(bytes);
    expect(sent.at(-1)!.bodyUsed).toBe(true);
  });

  it("writes a body in hand that is in chunks as the same bytes, without reading its stream", async () => {
    const inChunks = await rawRequest(server.url, "GET", "/in-chunks");
    expect(inChunks.status).toBe(201);
    expect(inChunks.headers).toMatchObject({ "content-type": "application/json", "x-answer": "/in-chunks", "content-length": String(bytes.byteLength) });
    expect(inChunks.body.equals(bytes)).toBe(true);
    expect(sent.at(-1)!.bodyUsed).toBe(false);
  });

  it("answers a body-less response and a handler's failure as the server adapter does", async () => {
    expect(await rawRequest(server.url, "GET", "/empty")).toMatchObject({ status: 204, body: Buffer.alloc(0) });
    const failed = await rawRequest(server.url, "GET", "/nothing-here");
    expect(failed.status).toBe(500);
  });
});
