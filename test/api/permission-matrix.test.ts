// Every /v1 operation × every kind of caller → the status semantics.md's permission rules give.
import { beforeAll, afterAll, expect, it } from "vitest";
import { createGrant, deleteGrant } from "../../src/domain/grants.js";
import { depublishRelease } from "../../src/domain/releases.js";
import { deliveryOf } from "../../src/domain/webhook-deliveries.js";
import { createWebhook, deleteWebhook } from "../../src/domain/webhooks.js";
import { webhookUrlPolicy } from "../../src/webhooks/url-policy.js";
import type { HttpResult } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";
import { rejectedCredentials } from "./releases/support.js";

const CALLERS = ["no token", "bad token", "revoked token", "stranger", "viewer", "deployer", "owner", "admin"] as const;
type Caller = (typeof CALLERS)[number];

interface Operation {
  name: string;
  /** Prepares fresh state for one call and returns the request to make. */
  prepare(world: World): Promise<{ method: string; path: string; body?: unknown }>;
  expected: Record<Caller, number>;
}

const unauthenticated = { "no token": 401, "bad token": 401, "revoked token": 401 } as const;
const environmentReader = { ...unauthenticated, stranger: 404, viewer: 200, deployer: 200, owner: 200, admin: 200 };
const environmentWriter = (success: number) => ({ ...unauthenticated, stranger: 404, viewer: 403, deployer: success, owner: success, admin: success });
const releaseOwnerOnly = { ...unauthenticated, stranger: 404, viewer: 404, deployer: 404, owner: 200, admin: 200 };

let counter = 0;
const nextName = () => `matrix-tool-${++counter}`;

const webhookWriter = (success: number) => ({ ...unauthenticated, stranger: 404, viewer: 403, deployer: success, owner: success, admin: success });
const accountOwnerOnly = (success: number) => ({ ...unauthenticated, stranger: 404, viewer: 404, deployer: 404, owner: success, admin: success });

/** A new webhook of the environment, after deleting the owner's earlier ones (the plan limits how many it holds). */
async function freshWebhook(world: World) {
  const db = world.service.db;
  for (const earlier of await db.webhook.findMany({ where: { accountId: world.owner.account.id }, select: { id: true } })) {
    await deleteWebhook(db, world.owner.account, earlier.id);
  }
  const { webhook } = await createWebhook(db, world.owner.account, webhookUrlPolicy([]), {
    scope: { environmentId: world.environment.id },
    url: "https://hooks.example.com/matrix",
  });
  return webhook;
}

async function activeGrant(world: World) {
  const release = await world.publish(world.owner, nextName(), "1.0.0");
  return createGrant(world.service.db, world.owner.account, world.environment.id, { release: { type: "ById", releaseId: release.id }, automatic: false });
}

const OPERATIONS: Operation[] = [
  {
    name: "1 GET /v1/envs/{environment_id}/tool-middlewares",
    prepare: async (world) => ({ method: "GET", path: `/v1/envs/${world.environment.id}/tool-middlewares` }),
    expected: environmentReader,
  },
  {
    name: "2 POST /v1/envs/{environment_id}/tool-middlewares",
    prepare: async (world) => {
      const release = await world.publish(world.owner, nextName(), "1.0.0");
      return {
        method: "POST",
        path: `/v1/envs/${world.environment.id}/tool-middlewares`,
        body: { release: { type: "ById", releaseId: release.id }, automatic: false },
      };
    },
    expected: environmentWriter(200),
  },
  {
    name: "3 POST /v1/envs/{environment_id}/tool-middlewares/validate",
    prepare: async (world) => ({
      method: "POST",
      path: `/v1/envs/${world.environment.id}/tool-middlewares/validate`,
      body: { grantReconciliation: { creations: [], deletions: [] }, publications: [] },
    }),
    expected: environmentReader,
  },
  {
    name: "4 GET /v1/environment-tool-middleware-grants/{grant_id}",
    prepare: async (world) => ({ method: "GET", path: `/v1/environment-tool-middleware-grants/${(await activeGrant(world)).id}` }),
    expected: environmentReader,
  },
  {
    name: "5 DELETE /v1/environment-tool-middleware-grants/{grant_id}",
    prepare: async (world) => ({
      method: "DELETE",
      path: `/v1/environment-tool-middleware-grants/${(await activeGrant(world)).id}`,
      body: { automatic: false },
    }),
    expected: environmentWriter(204),
  },
  {
    name: "6 POST /v1/environment-tool-middleware-grants/{grant_id}/restore",
    prepare: async (world) => {
      const grant = await activeGrant(world);
      await deleteGrant(world.service.db, world.owner.account, grant.id, { automatic: false });
      return { method: "POST", path: `/v1/environment-tool-middleware-grants/${grant.id}/restore` };
    },
    expected: environmentWriter(200),
  },
  {
    name: "7 GET /v1/accounts/{account_id}/tool-releases",
    prepare: async (world) => ({ method: "GET", path: `/v1/accounts/${world.owner.account.id}/tool-releases` }),
    expected: releaseOwnerOnly,
  },
  {
    name: "8 GET /v1/tool-releases/{release_id}",
    prepare: async (world) => ({ method: "GET", path: `/v1/tool-releases/${(await world.publish(world.owner, nextName(), "1.0.0")).id}` }),
    expected: releaseOwnerOnly,
  },
  {
    name: "9 DELETE /v1/tool-releases/{release_id}",
    prepare: async (world) => ({ method: "DELETE", path: `/v1/tool-releases/${(await world.publish(world.owner, nextName(), "1.0.0")).id}` }),
    expected: releaseOwnerOnly,
  },
  {
    name: "10 POST /v1/tool-releases/{release_id}/restore",
    prepare: async (world) => {
      const release = await world.publish(world.owner, nextName(), "1.0.0");
      await depublishRelease(world.service.db, world.owner.account, release.id);
      return { method: "POST", path: `/v1/tool-releases/${release.id}/restore` };
    },
    expected: releaseOwnerOnly,
  },
  {
    name: "POST /v1/envs/{environment_id}/webhooks",
    prepare: async (world) => {
      await freshWebhook(world);
      return { method: "POST", path: `/v1/envs/${world.environment.id}/webhooks`, body: { url: "https://hooks.example.com/created" } };
    },
    expected: webhookWriter(201),
  },
  {
    name: "GET /v1/envs/{environment_id}/webhooks",
    prepare: async (world) => ({ method: "GET", path: `/v1/envs/${world.environment.id}/webhooks` }),
    expected: webhookWriter(200),
  },
  {
    name: "POST /v1/accounts/{account_id}/webhooks",
    prepare: async (world) => {
      await freshWebhook(world);
      return { method: "POST", path: `/v1/accounts/${world.owner.account.id}/webhooks`, body: { url: "https://hooks.example.com/created" } };
    },
    expected: accountOwnerOnly(201),
  },
  {
    name: "GET /v1/accounts/{account_id}/webhooks",
    prepare: async (world) => ({ method: "GET", path: `/v1/accounts/${world.owner.account.id}/webhooks` }),
    expected: accountOwnerOnly(200),
  },
  {
    name: "GET /v1/webhooks/{webhook_id}",
    prepare: async (world) => ({ method: "GET", path: `/v1/webhooks/${(await freshWebhook(world)).id}` }),
    expected: webhookWriter(200),
  },
  {
    name: "DELETE /v1/webhooks/{webhook_id}",
    prepare: async (world) => ({ method: "DELETE", path: `/v1/webhooks/${(await freshWebhook(world)).id}` }),
    expected: webhookWriter(204),
  },
  {
    name: "POST /v1/webhooks/{webhook_id}/rotate-secret",
    prepare: async (world) => ({ method: "POST", path: `/v1/webhooks/${(await freshWebhook(world)).id}/rotate-secret` }),
    expected: webhookWriter(200),
  },
  {
    name: "POST /v1/webhooks/{webhook_id}/enable",
    prepare: async (world) => ({ method: "POST", path: `/v1/webhooks/${(await freshWebhook(world)).id}/enable` }),
    expected: webhookWriter(200),
  },
  {
    name: "GET /v1/webhooks/{webhook_id}/deliveries",
    prepare: async (world) => ({ method: "GET", path: `/v1/webhooks/${(await freshWebhook(world)).id}/deliveries` }),
    expected: webhookWriter(200),
  },
  {
    name: "POST /v1/webhook-deliveries/{delivery_id}/redeliver",
    prepare: async (world) => {
      const webhook = await freshWebhook(world);
      const event = await world.service.db.changeEvent.findFirstOrThrow({ where: { environmentId: world.environment.id }, orderBy: { id: "desc" } });
      const delivery = await deliveryOf(world.service.db, webhook.id, event.id);
      return { method: "POST", path: `/v1/webhook-deliveries/${delivery!.id}/redeliver` };
    },
    expected: { ...unauthenticated, stranger: 404, viewer: 403, deployer: 202, owner: 202, admin: 202 },
  },
];

describeEachDatabase("permission matrix", (provider) => {
  let service: TestService;
  let world: World;
  let send: Record<Caller, (method: string, path: string, body?: unknown) => Promise<HttpResult>>;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    const rejected = await rejectedCredentials(world);
    send = {
      "no token": (method, path, body) => world.anonymous.request(method, path, body),
      "bad token": (method, path) => rejected["an unknown token"](method, path),
      "revoked token": (method, path) => rejected["a revoked token"](method, path),
      stranger: (method, path, body) => world.stranger.http.request(method, path, body),
      viewer: (method, path, body) => world.viewer.http.request(method, path, body),
      deployer: (method, path, body) => world.deployer.http.request(method, path, body),
      owner: (method, path, body) => world.owner.http.request(method, path, body),
      admin: (method, path, body) => world.admin.request(method, path, body),
    };
  });
  afterAll(() => service?.stopAndDrop());

  for (const operation of OPERATIONS) {
    it(`${operation.name}: ${CALLERS.map((caller) => `${caller} → ${operation.expected[caller]}`).join(", ")}`, async () => {
      const observed: Record<string, number> = {};
      for (const caller of CALLERS) {
        const request = await operation.prepare(world);
        observed[caller] = (await send[caller](request.method, request.path, request.body)).status;
      }
      expect(observed).toEqual(operation.expected);
    });
  }
});
