// SIGTERM drains: /readyz turns 503, new connections are refused, idle keep-alive connections are
// closed, every in-flight request is answered (with Connection: close), and the process exits 0
// within the grace period. The real `toolgate serve` under 40 in-flight applies, on both databases.
import http from "node:http";
import net from "node:net";
import { afterEach, expect, it } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { largeDefinition } from "../fixtures/definitions/index.js";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { describeEachDatabase, POSTGRES_URL } from "../helpers/service.js";
import { prepareRegistry, publishAndGrant, validatePath } from "./process-support.js";

const IN_FLIGHT = 40;
// Generous: 40 validations of large definitions take seconds on a loaded 2-core CI machine, and a
// request cut at the end of the grace period is the other test's subject, not this one's.
const GRACE_MS = 30_000;

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** One request over `agent`; rejects when the connection fails or is cut before a complete response. */
function send(
  agent: http.Agent,
  url: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): { written: Promise<void>; answer: Promise<Answer> } {
  let written!: () => void;
  const writtenPromise = new Promise<void>((resolve) => (written = resolve));
  const answer = new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(`${url}${path}`, {
      method,
      agent,
      headers: { authorization: `Bearer ${token}`, ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}) },
    });
    request.on("finish", () => written());
    request.on("error", reject);
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("aborted", () => reject(new Error("response aborted")));
      response.on("error", reject);
      response.on("end", () => resolve({ status: response.statusCode!, connection: response.headers.connection, body: text }));
    });
    request.end(payload);
  });
  return { written: writtenPromise, answer };
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

describeEachDatabase("SIGTERM", (provider) => {
  let scratch: ScratchDatabase | undefined;
  let serving: ServingToolgate | undefined;
  afterEach(async () => {
    await serving?.ensureDead();
    await scratch?.drop();
    serving = undefined;
    scratch = undefined;
  });

  it(`answers ${IN_FLIGHT} in-flight requests, refuses new connections, and exits 0 within the grace period`, { timeout: 120_000 }, async () => {
    scratch = await createScratchDatabase(provider, POSTGRES_URL);
    const adminToken = `tg_shutdown_admin_${"d".repeat(32)}`;
    serving = await serveToolgate({
      TOOLGATE_DATABASE_URL: scratch.url,
      TOOLGATE_ADMIN_TOKEN: adminToken,
      TOOLGATE_SHUTDOWN_GRACE_MS: String(GRACE_MS),
      LOG_LEVEL: "info",
    });
    const { url } = serving;
    const port = Number(new URL(url).port);
    const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT + 10 });

    // Idle keep-alive connections, which must not hold the process open.
    await Promise.all(Array.from({ length: 5 }, () => send(agent, url, "GET", "/healthz", adminToken).answer));
    // A /readyz request whose headers are half sent before SIGTERM and finished during the drain.
    const probe = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => probe.once("connect", resolve));
    probe.write("GET /readyz HTTP/1.1\r\nHost: toolgate\r\n");
    let probeAnswer = "";
    probe.on("data", (chunk) => (probeAnswer += chunk.toString()));
    const probeClosed = new Promise((resolve) => probe.once("close", resolve));

    // Validations of large definitions: slow (parsing, structure and rule checks, digests) and free of write conflicts.
    const registry = await prepareRegistry(url, adminToken);
    const requests = Array.from({ length: IN_FLIGHT }, (_, index) => {
      const name = `drain-${index}`;
      return send(
        agent,
        url,
        "POST",
        validatePath(registry),
        adminToken,
        publishAndGrant(registry, name, largeDefinition({ name, version: "1.0.0", nodes: 120 })),
      );
    });
    await Promise.all(requests.map((request) => request.written));
    const outcomes = Promise.allSettled(requests.map((request) => request.answer));

    const signalled = performance.now();
    serving.child.kill("SIGTERM");
    await waitFor(() => serving!.stdout().includes("shutting down"));
    // Connections clients queued before the signal are still accepted; then the listener closes. The
    // half-sent /readyz request keeps the process draining until we have seen that.
    let refusedDuringDrain = false;
    while (serving.child.exitCode === null && !refusedDuringDrain) {
      refusedDuringDrain = (await connectionRefused(port)) && serving.child.exitCode === null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    probe.write("\r\n");

    const settled = await outcomes;
    const exit = await serving.exited;
    await probeClosed;
    agent.destroy();

    const failures = settled.flatMap((outcome, index) => (outcome.status === "rejected" ? [`#${index}: ${String(outcome.reason)}`] : []));
    expect(failures).toEqual([]);
    for (const outcome of settled) {
      const answer = (outcome as PromiseFulfilledResult<Answer>).value;
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body).publicationPlan).toEqual([expect.objectContaining({ action: "publish" })]);
    }
    // Answers written after the signal close their connection (those before it may keep it alive).
    expect(settled.some((outcome) => (outcome as PromiseFulfilledResult<Answer>).value.connection === "close")).toBe(true);
    expect(probeAnswer).toMatch(/^HTTP\/1\.1 503 /);
    expect(probeAnswer).toMatch(/\r\nconnection: close\r\n/i);
    expect(probeAnswer).toContain('{"status":"shutting-down"}');
    expect(refusedDuringDrain).toBe(true);
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeLessThan(GRACE_MS + 2000);
  });

  it("cuts connections still unanswered when the grace period ends, and exits 0", async () => {
    scratch = await createScratchDatabase(provider, POSTGRES_URL);
    const graceMs = 1000;
    serving = await serveToolgate({
      TOOLGATE_DATABASE_URL: scratch.url,
      TOOLGATE_ADMIN_TOKEN: `tg_grace_admin_${"g".repeat(32)}`,
      TOOLGATE_SHUTDOWN_GRACE_MS: String(graceMs),
      LOG_LEVEL: "info",
    });
    const port = Number(new URL(serving.url).port);
    // A client that never finishes its request.
    const stalled = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => stalled.once("connect", resolve));
    stalled.write("POST /graphql HTTP/1.1\r\nHost: toolgate\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
    const stalledClosed = new Promise((resolve) => stalled.once("close", resolve));
    stalled.on("error", () => {});
    await new Promise((resolve) => setTimeout(resolve, 100));

    const signalled = performance.now();
    serving.child.kill("SIGTERM");
    const exit = await serving.exited;
    await stalledClosed;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeGreaterThanOrEqual(graceMs - 100);
    expect(exit.at - signalled).toBeLessThan(graceMs + 3000);
    expect(serving.stdout()).toContain("grace period over");
  });

  it("exits 0 on a SIGTERM sent the moment the banner is out", async () => {
    scratch = await createScratchDatabase(provider, POSTGRES_URL);
    // An orchestrator may stop a replica as soon as it reports ready; the handler is in place by then.
    serving = await serveToolgate({ TOOLGATE_DATABASE_URL: scratch.url, TOOLGATE_ADMIN_TOKEN: `tg_early_admin_${"e".repeat(32)}` });
    serving.child.kill("SIGTERM");
    expect(await serving.exited).toMatchObject({ code: 0, signal: null });
  });
});
