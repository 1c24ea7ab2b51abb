// `npx tsx bench/fan-out.ts [options]`: live change events delivered to many subscribers of one
// environment. Seeds an environment shared with accounts whose tokens subscribe (1,000 streams over
// 50 tokens by default, opened by bench/fan-out-subscribers.ts in a process of its own), starts the
// shipped build (`toolgate serve`), then, per change: creates a grant through REST and times, from
// the write's response, until the last subscriber received its event, while probing `GET /healthz`
// and a small REST read back to back until then (how long an unrelated request waits meanwhile);
// the grant is deleted again between changes. See docs/performance.md.
import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase, DEFAULT_POSTGRES_SERVER_URL } from "../scripts/scratch-database.js";
import { createAccount, issueToken } from "../src/domain/accounts.js";
import { createEnvironment, shareEnvironment } from "../src/domain/environments.js";
import { applyChanges } from "../src/domain/publications.js";
import { definitionOfSize } from "./definitions.js";
import type { SubscribersJob, SubscribersReport } from "./fan-out-subscribers.js";
import { startToolgate } from "./servers.js";

const USAGE = `usage: npx tsx bench/fan-out.ts [options]

  --bin PATH            the toolgate command to measure (default bin/toolgate.js: this checkout's build)
  --db sqlite|postgresql  (default postgresql)
  --postgres-url URL    PostgreSQL server for the scratch database (default TOOLGATE_TEST_POSTGRES_URL, else ${DEFAULT_POSTGRES_SERVER_URL})
  --subscribers N       open streams (default 1000)
  --tokens N            API tokens they use, of accounts with 5 tokens each (default 50)
  --changes N           measured changes (default 20)`;

const { values } = parseArgs({
  options: {
    bin: { type: "string", default: "bin/toolgate.js" },
    db: { type: "string", default: "postgresql" },
    "postgres-url": { type: "string" },
    subscribers: { type: "string", default: "1000" },
    tokens: { type: "string", default: "50" },
    changes: { type: "string", default: "20" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const provider = values.db as DatabaseProvider;
const tokenCount = Number(values.tokens);
const perToken = Math.ceil(Number(values.subscribers) / tokenCount);
const changes = Number(values.changes);
const TOKENS_PER_ACCOUNT = 5;
const PAUSE_BETWEEN_CHANGES_MS = 300;

const now = () => performance.timeOrigin + performance.now();
const log = (line: string) => console.error(line);

interface Seeded {
  environmentId: string;
  releaseId: string;
  ownerToken: string;
  subscriberTokens: string[];
}

async function seed(databaseUrl: string): Promise<Seeded> {
  const db = await openDatabase(databaseUrl);
  try {
    const owner = await createAccount(db, "system", { name: "Fan-out owner", email: `owner-${randomUUID().slice(0, 8)}@example.test`, plan: "team" });
    const environment = await createEnvironment(db, "system", { accountId: owner.id, name: "production" });
    const published = await applyChanges(db, owner, environment.id, {
      publications: [
        {
          name: "fan-out-tool",
          definition: definitionOfSize("fan-out-tool", "1.0.0", 2000),
          source: { kind: "component", componentId: randomUUID(), componentRevision: 1, componentName: "fan-out-tool" },
        },
      ],
      grantReconciliation: { creations: [], deletions: [] },
    });
    const ownerToken = (await issueToken(db, "system", { accountId: owner.id, name: "writer" })).secret;
    const subscriberTokens: string[] = [];
    for (let index = 0; subscriberTokens.length < tokenCount; index += 1) {
      const viewer = await createAccount(db, "system", {
        name: `Viewer ${index}`,
        email: `viewer-${index}-${randomUUID().slice(0, 8)}@example.test`,
        plan: "team",
      });
      await shareEnvironment(db, "system", { environmentId: environment.id, accountId: viewer.id, role: "viewer" });
      for (let token = 0; token < TOKENS_PER_ACCOUNT && subscriberTokens.length < tokenCount; token += 1) {
        subscriberTokens.push((await issueToken(db, "system", { accountId: viewer.id, name: `subscriber-${token}` })).secret);
      }
    }
    return { environmentId: environment.id, releaseId: published.releases[0]!.id, ownerToken, subscriberTokens };
  } finally {
    await db.$disconnect();
  }
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

const summary = (values: number[]) =>
  `p50 ${quantile(values, 0.5).toFixed(0)} ms, p99 ${quantile(values, 0.99).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms (n=${values.length})`;

async function main(): Promise<void> {
  const scratch = await createScratchDatabase(provider, values["postgres-url"]);
  const subscribers = fork(fileURLToPath(new URL("./fan-out-subscribers.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    await migrateDatabase(scratch.url);
    const seeded = await seed(scratch.url);
    const toolgate = await startToolgate(scratch.url, { TOOLGATE_MAX_SUBSCRIPTIONS_PER_TOKEN: String(perToken) }, values.bin);
    try {
      const authorization = { authorization: `Bearer ${seeded.ownerToken}`, "content-type": "application/json" };
      const timed = async (path: string, init: RequestInit = {}) => {
        const started = now();
        const response = await fetch(toolgate.url + path, init);
        const body = await response.text();
        return { status: response.status, body, ms: now() - started };
      };
      const probes = {
        healthz: () => timed("/healthz"),
        restRead: () => timed(`/v1/tool-releases/${seeded.releaseId}`, { headers: authorization }),
      };

      // Each report for event n resolves its waiter; a failure ends the run.
      const received = new Map<number, (report: { firstAt: number; lastAt: number }) => void>();
      const delivered = new Map<number, { firstAt: number; lastAt: number }>();
      let failure: ((error: Error) => void) | undefined;
      const ready = new Promise<number>((resolve, reject) => {
        failure = reject;
        subscribers.on("message", (report: SubscribersReport) => {
          if (report.kind === "ready") resolve(report.streams);
          else if (report.kind === "failed") failure?.(new Error(report.error));
          else {
            delivered.set(report.event, report);
            received.get(report.event)?.(report);
          }
        });
      });
      const allReceived = (event: number) =>
        new Promise<{ firstAt: number; lastAt: number }>((resolve, reject) => {
          failure = reject;
          const known = delivered.get(event);
          if (known) resolve(known);
          else received.set(event, resolve);
        });

      const job: SubscribersJob = { url: toolgate.url, environmentId: seeded.environmentId, tokens: seeded.subscriberTokens, perToken };
      subscribers.send(job);
      const opening = now();
      const streams = await ready;
      log(`[${provider}] ${streams} streams open over ${seeded.subscriberTokens.length} tokens in ${((now() - opening) / 1000).toFixed(1)} s (${values.bin})`);

      const idle = { healthz: [] as number[], restRead: [] as number[] };
      for (let index = 0; index < 50; index += 1) {
        idle.healthz.push((await probes.healthz()).ms);
        idle.restRead.push((await probes.restRead()).ms);
      }

      const deliveryMs: number[] = [];
      const meanwhile = { healthz: [] as number[], restRead: [] as number[] };
      let event = 0;
      for (let change = 0; change < changes; change += 1) {
        const created = await timed(`/v1/envs/${seeded.environmentId}/tool-middlewares`, {
          method: "POST",
          headers: authorization,
          body: JSON.stringify({ release: { type: "ById", releaseId: seeded.releaseId } }),
        });
        if (created.status !== 200) throw new Error(`createGrant answered ${created.status}: ${created.body}`);
        const respondedAt = now();
        event += 1;
        let done = false;
        const arrival = allReceived(event).finally(() => (done = true));
        // Probes back to back until every subscriber has the event.
        while (!done) {
          const [health, read] = await Promise.all([probes.healthz(), probes.restRead()]);
          meanwhile.healthz.push(health.ms);
          meanwhile.restRead.push(read.ms);
        }
        const { lastAt } = await arrival;
        deliveryMs.push(lastAt - respondedAt);

        const grantId = (JSON.parse(created.body) as { grant: { id: string } }).grant.id;
        const deleted = await timed(`/v1/environment-tool-middleware-grants/${grantId}`, { method: "DELETE", headers: authorization });
        if (deleted.status !== 204) throw new Error(`deleteGrant answered ${deleted.status}: ${deleted.body}`);
        event += 1;
        await allReceived(event);
        await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_CHANGES_MS));
      }

      const result = {
        provider,
        bin: values.bin,
        subscribers: streams,
        tokens: seeded.subscriberTokens.length,
        changes,
        deliveryMs: { p50: quantile(deliveryMs, 0.5), p99: quantile(deliveryMs, 0.99), max: Math.max(...deliveryMs) },
        healthzMeanwhileMs: { p50: quantile(meanwhile.healthz, 0.5), p99: quantile(meanwhile.healthz, 0.99), max: Math.max(...meanwhile.healthz) },
        restReadMeanwhileMs: { p50: quantile(meanwhile.restRead, 0.5), p99: quantile(meanwhile.restRead, 0.99), max: Math.max(...meanwhile.restRead) },
        idleHealthzMs: quantile(idle.healthz, 0.5),
        idleRestReadMs: quantile(idle.restRead, 0.5),
      };
      log(`[${provider}] createGrant response → last of ${streams} subscribers: ${summary(deliveryMs)}`);
      log(`[${provider}] meanwhile GET /healthz: ${summary(meanwhile.healthz)}; REST read: ${summary(meanwhile.restRead)}`);
      log(`[${provider}] idle: GET /healthz p50 ${result.idleHealthzMs.toFixed(1)} ms, REST read p50 ${result.idleRestReadMs.toFixed(1)} ms`);
      console.log(JSON.stringify(result));
    } finally {
      await toolgate.stop();
    }
  } finally {
    subscribers.kill();
    await scratch.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
