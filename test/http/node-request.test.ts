// How a node:http request reaches the fetch handler: its URL, method, headers and body as sent, and
// no AbortSignal of its own; whether its client went away is asked of `abandonmentOf` instead, which
// aborts when the connection closes before the answer finished, and never after it did.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../src/http/server/listen.js";
import { abandonmentOf } from "../../src/http/server/node-request.js";
import type { ServerResponse } from "node:http";

describe("node:http requests as fetch Requests", () => {
  const seen: Array<{ url: string; method: string; headers: Record<string, string>; body: string; signalAborted: boolean }> = [];
  /** Per path, the abandonment signal the handler took, and whether it had aborted when the handler finished waiting. */
  const abandonments = new Map<string, { signal: AbortSignal; abortedWhileWaiting: Promise<boolean> }>();
  let server: RunningServer;

  beforeAll(async () => {
    const handler = Object.assign(
      async (request: Request, serverContext?: object) => {
        const path = new URL(request.url).pathname;
        const response = (serverContext as { res: ServerResponse }).res;
        if (path === "/wait") {
          const signal = abandonmentOf(response);
          const abortedWhileWaiting = new Promise<boolean>((resolve) => {
            signal.addEventListener("abort", () => resolve(true), { once: true });
            setTimeout(() => resolve(signal.aborted), 2000);
          });
          abandonments.set(path, { signal, abortedWhileWaiting });
          await abortedWhileWaiting;
          return new Response("late");
        }
        if (path === "/answered") {
          abandonments.set(path, { signal: abandonmentOf(response), abortedWhileWaiting: Promise.resolve(false) });
          return new Response("answered");
        }
        const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
        seen.push({ url: request.url, method: request.method, headers: Object.fromEntries(request.headers), body, signalAborted: request.signal.aborted });
        return new Response("ok");
      },
      { refuseMethod: () => new Response(null, { status: 405 }) },
    );
    server = await listen(handler, 0, "127.0.0.1");
  });
  afterAll(() => server?.close());

  it("carries the URL with its query, the method, the headers and a streamed body as sent", async () => {
    const body = JSON.stringify({ text: "café ".repeat(50_000) });
    const response = await fetch(`${server.url}/v1/things?limit=5&after=x`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer abc", "x-request-id": "r-1" },
      body,
    });
    expect(response.status).toBe(200);
    const request = seen.at(-1)!;
    expect(request.url).toBe(`${server.url}/v1/things?limit=5&after=x`);
    expect(request.method).toBe("POST");
    expect(request.headers).toMatchObject({ "content-type": "application/json", authorization: "Bearer abc", "x-request-id": "r-1" });
    expect(request.body).toBe(body);
    expect(request.signalAborted).toBe(false);

    await fetch(`${server.url}/plain`);
    expect(seen.at(-1)).toMatchObject({ url: `${server.url}/plain`, method: "GET", body: "" });
  });

  it("aborts the abandonment signal when the client goes away before its answer", async () => {
    const client = httpRequest(`${server.url}/wait`);
    client.on("error", () => {});
    client.end();
    while (!abandonments.has("/wait")) await new Promise((resolve) => setTimeout(resolve, 10));
    client.destroy();
    const { signal, abortedWhileWaiting } = abandonments.get("/wait")!;
    expect(await abortedWhileWaiting).toBe(true);
    expect(signal.aborted).toBe(true);
  });

  it("never aborts it for an answer that was sent, even when the connection closes afterwards", async () => {
    const response = await fetch(`${server.url}/answered`, { headers: { connection: "close" } });
    expect(await response.text()).toBe("answered");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(abandonments.get("/answered")!.signal.aborted).toBe(false);
  });
});
