// Managing webhooks through REST and GraphQL: who may create, see and change them, the plan's
// limit under concurrent creations, the secret shown once, and their own change events.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { globalId } from "../graphql/support.js";
import { client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";

const URL = "https://hooks.example.com/toolgate";

describeEachDatabase("webhooks", (provider: DatabaseProvider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    // A long poll and no reachable receiver: these tests look at management, not at sending.
    service = await startTestService(provider, {
      webhooks: { allowedHosts: [], timeoutMs: 1_000, firstRetryMs: 60_000, maxFailures: 15, pollMs: 60_000, concurrency: 2 },
    });
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  const environmentPath = () => `/v1/envs/${world.environment.id}/webhooks`;

  describe("create environment webhook", () => {
    it("answers 201 with the webhook and its secret, which no read shows again", async () => {
      const created = await world.owner.http.post(environmentPath(), { url: URL, eventTypes: ["grant-created", "grant-deleted"] });
      expect(created.status, created.text).toBe(201);
      expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created.body.webhook).toMatchObject({
        url: URL,
        eventTypes: ["grant-created", "grant-deleted"],
        state: "active",
        consecutiveFailures: 0,
        nextAttemptAt: null,
        environmentId: world.environment.id,
        accountId: world.owner.account.id,
        createdBy: world.owner.account.id,
      });
      const read = await world.owner.http.get(`/v1/webhooks/${created.body.webhook.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body.webhook);
      expect(read.text).not.toContain(created.body.secret);
      const events = await world.owner.http.get(`/v1/envs/${world.environment.id}/events?limit=500`);
      const own = events.body.values.find(
        (event: { type: string; state: { id: string } }) => event.type === "webhook-created" && event.state.id === created.body.webhook.id,
      );
      expect(own).toBeDefined();
      expect(JSON.stringify(own)).not.toContain("whsec_");
      expect(own.state).not.toHaveProperty("secret");
      // Viewers read the environment's events: the URL's path, which may be a credential itself, is left out.
      expect(own.state.url).toBe("https://hooks.example.com/…");
    });

    it("lets a deployer create one", async () => {
      expect((await world.deployer.http.post(environmentPath(), { url: URL })).status).toBe(201);
    });

    it("answers 403 to a viewer, and ENVIRONMENT_NOT_FOUND to an account that cannot see the environment", async () => {
      const viewer = await world.viewer.http.post(environmentPath(), { url: URL });
      expect([viewer.status, viewer.body.code]).toEqual([403, "AUTH_FORBIDDEN"]);
      const stranger = await world.stranger.http.post(environmentPath(), { url: URL });
      expect([stranger.status, stranger.body.code]).toEqual([404, "ENVIRONMENT_NOT_FOUND"]);
      expect((await world.anonymous.post(environmentPath(), { url: URL })).status).toBe(401);
    });

    it("answers 400 for a missing body, a bad URL or an unknown event type, and for a path that is not a UUID", async () => {
      const missing = await world.owner.http.post(environmentPath());
      expect([missing.status, missing.body.code]).toEqual([400, "REQUEST_INVALID"]);
      const empty = await world.owner.http.post(environmentPath(), { url: URL, eventTypes: [] });
      expect(empty.status).toBe(400);
      const badPath = await world.owner.http.post("/v1/envs/not-a-uuid/webhooks", { url: URL });
      expect(badPath.status).toBe(400);
      expect(badPath.body.errors[0]).toMatch(/^path\.environmentId/);
    });
  });

  describe("create account webhook", () => {
    it("lets an account create one for itself, and answers ACCOUNT_NOT_FOUND for another account", async () => {
      const own = await world.stranger.http.post(`/v1/accounts/${world.stranger.account.id}/webhooks`, { url: URL });
      expect(own.status, own.text).toBe(201);
      expect(own.body.webhook).toMatchObject({ environmentId: null, accountId: world.stranger.account.id });
      const other = await world.stranger.http.post(`/v1/accounts/${world.owner.account.id}/webhooks`, { url: URL });
      expect([other.status, other.body.code]).toEqual([404, "ACCOUNT_NOT_FOUND"]);
      const byAdmin = await world.admin.post(`/v1/accounts/${world.owner.account.id}/webhooks`, { url: URL });
      expect(byAdmin.status).toBe(201);
    });
  });

  describe("list webhooks", () => {
    it("pages an environment's webhooks with limit and nextCursor, oldest first", async () => {
      const environment = await world.environmentOf(world.owner);
      const path = `/v1/envs/${environment.id}/webhooks`;
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1) ids.push((await world.owner.http.post(path, { url: `${URL}/${index}` })).body.webhook.id);
      const first = await world.owner.http.get(`${path}?limit=2`);
      expect(first.body.values.map((webhook: { id: string }) => webhook.id)).toEqual(ids.slice(0, 2));
      const second = await world.owner.http.get(`${path}?limit=2&cursor=${first.body.nextCursor}`);
      expect(second.body).toMatchObject({ values: [{ id: ids[2] }], nextCursor: null });
      const viewer = await world.viewer.http.get(environmentPath());
      expect(viewer.status).toBe(403);
    });

    it("lists an account's own webhooks, not its environments'", async () => {
      const member = await world.member();
      const environment = await world.environmentOf(member);
      await member.http.post(`/v1/envs/${environment.id}/webhooks`, { url: URL });
      const mine = (await member.http.post(`/v1/accounts/${member.account.id}/webhooks`, { url: URL })).body.webhook;
      const list = await member.http.get(`/v1/accounts/${member.account.id}/webhooks`);
      expect(list.body.values.map((webhook: { id: string }) => webhook.id)).toEqual([mine.id]);
      expect(list.body.nextCursor).toBeNull();
      expect((await world.stranger.http.get(`/v1/accounts/${member.account.id}/webhooks`)).status).toBe(404);
    });
  });

  describe("get webhook", () => {
    it("answers WEBHOOK_NOT_FOUND to an account that may not see it, and 403 to a viewer of its environment", async () => {
      const { webhook } = (await world.owner.http.post(environmentPath(), { url: URL })).body;
      const stranger = await world.stranger.http.get(`/v1/webhooks/${webhook.id}`);
      expect([stranger.status, stranger.body.code]).toEqual([404, "WEBHOOK_NOT_FOUND"]);
      expect((await world.viewer.http.get(`/v1/webhooks/${webhook.id}`)).status).toBe(403);
      expect((await world.deployer.http.get(`/v1/webhooks/${webhook.id}`)).status).toBe(200);
      const unknown = await world.owner.http.get("/v1/webhooks/01a201cd-ac31-728b-b411-4c2a3ab92a61");
      expect([unknown.status, unknown.body.code]).toEqual([404, "WEBHOOK_NOT_FOUND"]);
    });
  });

  describe("rotate webhook secret", () => {
    it("answers a new secret once and records the rotation without it", async () => {
      const created = (await world.owner.http.post(environmentPath(), { url: URL })).body;
      const rotated = await world.owner.http.post(`/v1/webhooks/${created.webhook.id}/rotate-secret`);
      expect(rotated.status, rotated.text).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(created.secret);
      const events = (await world.owner.http.get(`/v1/envs/${world.environment.id}/events?limit=500`)).body.values;
      expect(events.at(-1)).toMatchObject({ type: "webhook-secret-rotated", state: { id: created.webhook.id } });
      expect(JSON.stringify(events)).not.toContain(rotated.body.secret);
      expect((await world.stranger.http.post(`/v1/webhooks/${created.webhook.id}/rotate-secret`)).status).toBe(404);
    });
  });

  describe("enable webhook", () => {
    it("changes nothing on an active webhook and records no event", async () => {
      const { webhook } = (await world.owner.http.post(environmentPath(), { url: URL })).body;
      const before = (await world.owner.http.get(`/v1/envs/${world.environment.id}/events?limit=500`)).body.values.length;
      const enabled = await world.owner.http.post(`/v1/webhooks/${webhook.id}/enable`);
      expect(enabled.status).toBe(200);
      expect(enabled.body.state).toBe("active");
      expect((await world.owner.http.get(`/v1/envs/${world.environment.id}/events?limit=500`)).body.values).toHaveLength(before);
    });
  });

  describe("delete webhook", () => {
    it("answers 204, then WEBHOOK_NOT_FOUND, and records the deletion", async () => {
      const { webhook } = (await world.deployer.http.post(environmentPath(), { url: URL })).body;
      expect((await world.viewer.http.delete(`/v1/webhooks/${webhook.id}`)).status).toBe(403);
      expect((await world.deployer.http.delete(`/v1/webhooks/${webhook.id}`)).status).toBe(204);
      expect((await world.owner.http.get(`/v1/webhooks/${webhook.id}`)).status).toBe(404);
      expect((await world.owner.http.delete(`/v1/webhooks/${webhook.id}`)).status).toBe(404);
      const events = (await world.owner.http.get(`/v1/envs/${world.environment.id}/events?limit=500`)).body.values;
      expect(events.at(-1)).toMatchObject({ type: "webhook-deleted", actorAccountId: world.deployer.account.id, state: { id: webhook.id } });
    });
  });

  describe("redeliver webhook delivery", () => {
    it("answers WEBHOOK_DELIVERY_NOT_FOUND for a delivery that does not exist", async () => {
      const unknown = await world.owner.http.post("/v1/webhook-deliveries/01a201cd-ac31-728b-b411-4c2a3ab92a61/redeliver");
      expect([unknown.status, unknown.body.code]).toEqual([404, "WEBHOOK_DELIVERY_NOT_FOUND"]);
    });
  });

  describe("the plan's limit", () => {
    it("counts an account's and its environments' webhooks together, and holds under concurrent creations", async () => {
      const free = await world.member({ plan: "free" });
      const environment = await world.environmentOf(free);
      const attempts = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          free.http.post(index % 2 === 0 ? `/v1/envs/${environment.id}/webhooks` : `/v1/accounts/${free.account.id}/webhooks`, { url: `${URL}/${index}` }),
        ),
      );
      const statuses = attempts.map((attempt) => attempt.status).sort();
      expect(statuses.filter((status) => status === 201)).toHaveLength(5);
      expect(statuses.filter((status) => status === 422)).toHaveLength(7);
      expect(attempts.find((attempt) => attempt.status === 422)!.body).toMatchObject({ code: "LIMIT_EXCEEDED" });
      const stored = await service.db.webhook.count({ where: { accountId: free.account.id } });
      expect(stored).toBe(5);
    });
  });

  describe("GraphQL", () => {
    it("creates, lists and reads webhooks with their delivery log, and never offers the secret as a field", async () => {
      const created = await world.owner.http.graphql(
        `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { uuid url eventTypes state environmentId } } }`,
        { input: { environmentId: world.environment.id, url: URL, eventTypes: ["GRANT_CREATED"] } },
      );
      expect(created.body.errors).toBeUndefined();
      const webhook = created.body.data.createWebhook.webhook;
      expect(webhook).toMatchObject({ url: URL, eventTypes: ["GRANT_CREATED"], state: "ACTIVE", environmentId: world.environment.id });
      const read = await world.owner.http.graphql(
        `query ($environmentId: UUID!, $id: UUID!) {
          environment(id: $environmentId) { webhooks(first: 500) { edges { node { uuid } } } }
          webhook(id: $id) { uuid deliveries(first: 5) { edges { node { uuid status attempts { outcome } } } pageInfo { hasNextPage } } }
        }`,
        { environmentId: world.environment.id, id: webhook.uuid },
      );
      expect(read.body.errors).toBeUndefined();
      expect(read.body.data.environment.webhooks.edges.map((edge: { node: { uuid: string } }) => edge.node.uuid)).toContain(webhook.uuid);
      expect(read.body.data.webhook.uuid).toBe(webhook.uuid);
      const secretField = await world.owner.http.graphql(`query ($id: UUID!) { webhook(id: $id) { secret } }`, { id: webhook.uuid });
      expect(secretField.status).toBe(400);
      expect(secretField.body.errors![0].message).toMatch(/Cannot query field "secret"/);
    });

    it("resolves a webhook's global id for those who may manage it, and null for a viewer", async () => {
      const { webhook } = (await world.owner.http.post(environmentPath(), { url: URL })).body;
      const id = globalId("Webhook", webhook.id);
      const query = `query ($id: ID!) { node(id: $id) { ... on Webhook { uuid } } }`;
      expect((await world.deployer.http.graphql(query, { id })).body.data).toEqual({ node: { uuid: webhook.id } });
      expect((await world.viewer.http.graphql(query, { id })).body.data).toEqual({ node: null });
      expect((await world.stranger.http.graphql(query, { id })).body.data).toEqual({ node: null });
    });

    it("refuses an input naming both an environment and an account, or neither", async () => {
      for (const scope of [{ environmentId: world.environment.id, accountId: world.owner.account.id }, {}]) {
        const refused = await world.owner.http.graphql(`mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }`, {
          input: { ...scope, url: URL },
        });
        expect(refused.body.errors![0].extensions.code).toBe("REQUEST_INVALID");
      }
    });

    it("shows another account's webhooks as an empty connection when that account is reached through a release", async () => {
      await world.owner.http.post(`/v1/accounts/${world.owner.account.id}/webhooks`, { url: URL });
      const release = await world.publish(world.owner, `webhook-owner-${Date.now()}`, "1.0.0");
      await world.owner.http.post(`/v1/envs/${world.environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: release.id } });
      const read = await world.viewer.http.graphql(
        `query ($id: UUID!) { environment(id: $id) { activeGrants(first: 20) { release { owner { webhooks(first: 5) { edges { node { uuid } } } } } } } }`,
        { id: world.environment.id },
      );
      expect(read.body.errors).toBeUndefined();
      const owners = read.body.data.environment.activeGrants.map((grant: { release: { owner: { webhooks: { edges: unknown[] } } } }) => grant.release.owner);
      expect(owners.length).toBeGreaterThan(0);
      for (const owner of owners) expect(owner.webhooks.edges).toEqual([]);
    });

    it("answers AUTH_FORBIDDEN to a viewer reading an environment's webhooks", async () => {
      const viewer = client(service.url, world.viewer.token);
      const read = await viewer.graphql(`query ($id: UUID!) { environment(id: $id) { webhooks { edges { node { uuid } } } } }`, { id: world.environment.id });
      expect(read.body.errors![0].extensions.code).toBe("AUTH_FORBIDDEN");
    });
  });
});
