// docs/webhooks.md's receiver example, run as written: it verifies what a real toolgate sends, and
// refuses a request whose signature was made with another secret.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { Webhook as Signer } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";

/** The one ```js block of the page. */
function receiverExample(): string {
  const blocks = [...readFileSync("docs/webhooks.md", "utf8").matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("docs/webhooks.md's receiver", () => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService("sqlite", {
      webhooks: { allowedHosts: ["127.0.0.1"], timeoutMs: 2_000, firstRetryMs: 200, maxFailures: 15, pollMs: 100, concurrency: 2 },
    });
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("verifies the requests toolgate sends, and refuses one signed with another secret", async () => {
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const created = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url });
    expect(created.status).toBe(201);

    // Inside the project, so that `standardwebhooks` resolves from its node_modules.
    const directory = path.resolve("test-artifacts/docs-receiver");
    mkdirSync(directory, { recursive: true });
    const file = path.join(directory, "receiver.mjs");
    writeFileSync(file, receiverExample());
    const receiver = spawn(process.execPath, [file], { env: { ...process.env, WEBHOOK_SECRET: created.body.secret, PORT: String(port) } });
    let output = "";
    receiver.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      const deadline = Date.now() + 15_000;
      while (!output.includes("webhook-created") && Date.now() < deadline) await sleep(50);
      expect(output.trim()).toBe(`webhook-created ${created.body.webhook.id}`);

      const body = JSON.stringify({ type: "grant-created", state: { id: "forged" } });
      const sentAt = new Date();
      const forged = await fetch(url, {
        method: "POST",
        body,
        headers: {
          "webhook-id": "forged",
          "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
          "webhook-signature": new Signer(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).sign("forged", sentAt, body),
        },
      });
      expect(forged.status).toBe(400);
      expect(output).not.toContain("forged");
    } finally {
      receiver.kill();
    }
  });
});
