// Webhook delivery against real receivers on 127.0.0.1: what a receiver gets, which addresses are
// refused (by the URL check and again on the address a connection resolves to), redirects, timeouts
// and oversized answers; and the URL check on its own.
import * as http from "node:http";
import { isIP, type AddressInfo, type LookupFunction } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createWebhookSender, webhookUrlProblems, type SenderSettings, type WebhookSender } from "../../src/webhooks/sender.js";

interface ReceivedRequest {
  method: string | undefined;
  path: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  connections(): number;
}

const cleanups: Array<() => void> = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A receiver that reads each request's body, records it, then lets `answer` respond (or not). */
async function startReceiver(answer: (res: http.ServerResponse) => void): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({ method: req.method, path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      answer(res);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, connections: () => connections };
}

function startSender(overrides: Partial<SenderSettings> = {}): WebhookSender {
  const sender = createWebhookSender({ connectTimeoutMs: 2000, totalTimeoutMs: 10_000, maxResponseBytes: 64 * 1024, allowedHosts: [], ...overrides });
  cleanups.push(() => sender.close());
  return sender;
}

/** A DNS that answers every name with `address`. */
function resolvingTo(address: string): LookupFunction {
  return (_hostname, options, callback) => {
    const family = isIP(address);
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

const portOf = (url: string) => new URL(url).port;

describe("webhook sender", () => {
  it("POSTs the body with JSON, its user agent and the given headers to an allowed host", async () => {
    const receiver = await startReceiver((res) => res.writeHead(200, { "content-type": "text/plain" }).end("thanks"));
    const sender = startSender({ allowedHosts: ["127.0.0.1"] });

    const attempt = await sender.send(`${receiver.url}/hooks/in`, { "webhook-id": "msg_1", "webhook-signature": "v1,c2ln" }, '{"type":"release.published"}');

    expect(attempt).toMatchObject({ ok: true, statusCode: 200, error: null, responseBody: "thanks" });
    expect(Number.isInteger(attempt.latencyMs)).toBe(true);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]).toMatchObject({
      method: "POST",
      path: "/hooks/in",
      body: '{"type":"release.published"}',
      headers: { "content-type": "application/json", "user-agent": "toolgate-webhooks", "webhook-id": "msg_1", "webhook-signature": "v1,c2ln" },
    });
  });

  it("reuses its connection to a receiver", async () => {
    const receiver = await startReceiver((res) => res.writeHead(204).end());
    const sender = startSender({ allowedHosts: ["127.0.0.1"] });

    expect((await sender.send(`${receiver.url}/`, {}, "{}")).ok).toBe(true);
    expect((await sender.send(`${receiver.url}/`, {}, "{}")).ok).toBe(true);

    expect(receiver.connections()).toBe(1);
  });

  it("refuses loopback by URL when the host is not allowed, without connecting", async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end());
    const sender = startSender();

    const attempt = await sender.send(`${receiver.url}/`, {}, "{}");

    expect(attempt).toMatchObject({ ok: false, statusCode: null });
    expect(attempt.error).toMatch(/^refused: must use https/);
    expect(attempt.error).toContain("host 127.0.0.1 is not a public address (loopback)");
    expect(receiver.connections()).toBe(0);
  });

  it("refuses at connect time a name that resolves to loopback", async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end());
    const url = `https://evil.test:${portOf(receiver.url)}/`;
    const sender = startSender({ lookup: resolvingTo("127.0.0.1") });

    expect(webhookUrlProblems(url, [])).toEqual([]);
    const attempt = await sender.send(url, {}, "{}");

    expect(attempt).toMatchObject({ ok: false, statusCode: null, responseBody: "" });
    expect(attempt.error).toMatch(/^refused: .*127\.0\.0\.1/);
    expect(receiver.connections()).toBe(0);
  });

  it("refuses at connect time a name that resolves to a private address", async () => {
    const sender = startSender({ lookup: resolvingTo("10.0.0.5") });

    const attempt = await sender.send("https://internal.test/hook", {}, "{}");

    expect(attempt).toMatchObject({ ok: false, statusCode: null });
    expect(attempt.error).toMatch(/^refused: .*10\.0\.0\.5/);
  });

  it("refuses the cloud metadata address, by URL and by resolved address", async () => {
    expect(webhookUrlProblems("https://169.254.169.254/latest/meta-data/", [])).toEqual(["host 169.254.169.254 is not a public address (cloud metadata)"]);

    const byUrl = await startSender().send("https://169.254.169.254/latest/meta-data/", {}, "{}");
    expect(byUrl).toMatchObject({ ok: false, statusCode: null, error: "refused: host 169.254.169.254 is not a public address (cloud metadata)" });

    const byName = await startSender({ lookup: resolvingTo("169.254.169.254") }).send("https://metadata.test/latest/meta-data/", {}, "{}");
    expect(byName).toMatchObject({ ok: false, statusCode: null });
    expect(byName.error).toMatch(/^refused: .*169\.254\.169\.254/);
  });

  it("does not follow a redirect", async () => {
    const target = await startReceiver((res) => res.writeHead(200).end());
    const redirecting = await startReceiver((res) => res.writeHead(302, { location: `${target.url}/` }).end());
    const sender = startSender({ allowedHosts: ["127.0.0.1"] });

    const attempt = await sender.send(`${redirecting.url}/`, {}, "{}");

    expect(attempt).toMatchObject({ ok: false, statusCode: 302, error: `redirect not followed (302 to ${target.url}/)` });
    expect(target.connections()).toBe(0);
  });

  it("gives up on a receiver that never answers at the total timeout", async () => {
    const receiver = await startReceiver(() => {});
    const sender = startSender({ allowedHosts: ["127.0.0.1"], totalTimeoutMs: 500 });

    const startedAt = Date.now();
    const attempt = await sender.send(`${receiver.url}/`, {}, "{}");

    expect(attempt).toMatchObject({ ok: false, statusCode: null, error: "timed out after 500 ms" });
    expect(Date.now() - startedAt).toBeLessThan(500 + 1000);
    expect(receiver.requests).toHaveLength(1);
  });

  it("gives up at the connect timeout when DNS does not answer", async () => {
    const sender = startSender({ allowedHosts: ["slow.test"], connectTimeoutMs: 200, lookup: () => {} });

    const attempt = await sender.send("https://slow.test/hook", {}, "{}");

    expect(attempt).toMatchObject({ ok: false, statusCode: null, error: "connect timeout after 200 ms" });
  });

  it("stops reading a huge answer after maxResponseBytes and keeps its status", async () => {
    const tenMegabytes = 10 * 1024 * 1024;
    let bytesWritten = 0;
    let closedBeforeFinishing: (value: boolean) => void = () => {};
    const serverClosed = new Promise<boolean>((resolve) => (closedBeforeFinishing = resolve));
    const receiver = await startReceiver((res) => {
      res.on("close", () => closedBeforeFinishing(!res.writableFinished));
      void (async () => {
        const chunk = Buffer.alloc(64 * 1024, "x");
        res.writeHead(200, { "content-type": "text/plain" });
        while (bytesWritten < tenMegabytes && !res.destroyed) {
          const flushed = res.write(chunk);
          bytesWritten += chunk.length;
          if (!flushed) await new Promise((resolve) => (res.once("drain", resolve), res.once("close", resolve)));
          await sleep(5);
        }
        if (!res.destroyed) res.end();
      })();
    });
    const sender = startSender({ allowedHosts: ["127.0.0.1"], maxResponseBytes: 64 * 1024 });

    const attempt = await sender.send(`${receiver.url}/`, {}, "{}");

    expect(attempt).toMatchObject({ ok: true, statusCode: 200, error: null, responseBody: "x".repeat(1024) });
    expect(await serverClosed).toBe(true);
    expect(bytesWritten).toBeLessThan(tenMegabytes);
  });

  it("fails on a 500 and keeps the answer for the log", async () => {
    const receiver = await startReceiver((res) => res.writeHead(500, { "content-type": "text/plain" }).end("boom"));
    const sender = startSender({ allowedHosts: ["127.0.0.1"] });

    const attempt = await sender.send(`${receiver.url}/`, {}, "{}");

    expect(attempt).toMatchObject({ ok: false, statusCode: 500, error: "answered 500", responseBody: "boom" });
  });

  it("fails, without throwing, when nothing listens", async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end());
    cleanups.pop()?.();
    const sender = startSender({ allowedHosts: ["127.0.0.1"] });

    const attempt = await sender.send(`${receiver.url}/`, {}, "{}");

    expect(attempt).toMatchObject({ ok: false, statusCode: null });
    expect(attempt.error).toContain("ECONNREFUSED");
  });
});

describe("webhook URL problems", () => {
  const httpsOnly = "must use https (http only for hosts in TOOLGATE_WEBHOOK_ALLOWED_HOSTS)";

  it.each<[url: string, allowedHosts: string[], problems: string[]]>([
    ["https://hooks.example.com/in", [], []],
    ["https://8.8.8.8/in", [], []],
    ["https://172.32.0.1/in", [], []],
    ["https://[2606:4700::1111]/in", [], []],
    ["http://hooks.example.com/in", [], [httpsOnly]],
    ["ftp://hooks.example.com/in", [], [httpsOnly]],
    ["http://hooks.internal:8080/in", ["hooks.internal"], []],
    ["http://HOOKS.Internal/in", ["hooks.internal"], []],
    ["http://127.0.0.1:8080/in", ["127.0.0.1"], []],
    ["https://[::1]/in", ["::1"], []],
    ["https://user:secret@hooks.example.com/in", [], ["must not contain credentials"]],
    ["https://[::1]/in", [], ["host ::1 is not a public address (loopback)"]],
    ["https://[::ffff:127.0.0.1]/in", [], ["host ::ffff:7f00:1 is not a public address (loopback)"]],
    ["https://[::ffff:8.8.8.8]/in", [], ["host ::ffff:808:808 is not a public address (IPv4-mapped)"]],
    ["https://0x7f.1/in", [], ["host 127.0.0.1 is not a public address (loopback)"]],
    ["https://10.1.2.3/in", [], ["host 10.1.2.3 is not a public address (private)"]],
    ["https://192.168.0.10/in", [], ["host 192.168.0.10 is not a public address (private)"]],
    ["https://172.16.5.4/in", [], ["host 172.16.5.4 is not a public address (private)"]],
    ["https://[fd00::1]/in", [], ["host fd00::1 is not a public address (private)"]],
    ["https://169.254.169.254/in", [], ["host 169.254.169.254 is not a public address (cloud metadata)"]],
    ["https://169.254.10.1/in", [], ["host 169.254.10.1 is not a public address (link-local)"]],
    ["https://[fe80::1]/in", [], ["host fe80::1 is not a public address (link-local)"]],
    ["https://0.0.0.0/in", [], ["host 0.0.0.0 is not a public address (unspecified)"]],
    ["https://localhost/in", [], ["host localhost is not a public name (loopback)"]],
    ["https://api.localhost./in", [], ["host api.localhost is not a public name (loopback)"]],
    ["http://localhost:3000/in", ["localhost"], []],
    ["http://127.0.0.1/in", [], [httpsOnly, "host 127.0.0.1 is not a public address (loopback)"]],
    ["not a url", [], ["must be an absolute URL"]],
    [`https://hooks.example.com/${"a".repeat(2048)}`, [], ["must be at most 2048 characters"]],
  ])("%s (allowed: %j)", (url, allowedHosts, problems) => {
    expect(webhookUrlProblems(url, allowedHosts)).toEqual(problems);
  });
});
