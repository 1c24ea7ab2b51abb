// Change events: every state transition appends exactly one event, in the change's transaction,
// readable through REST (/v1/envs/{id}/events, /v1/accounts/{id}/events) and GraphQL
// (Environment.events, Account.events).
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../../../src/db/client.js";
import type { ChangeEvent } from "../../../src/db/generated/sqlite/client.js";
import { applyChanges } from "../../../src/domain/publications.js";
import { writeTransaction } from "../../../src/domain/write-transaction.js";
import { definitionFor } from "../../fixtures/definitions/index.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import { body, otherContent, paths, publication, uniqueName } from "../publications/support.js";

const EVENT_FIELDS = "uuid type occurredAt actorAccountId environmentId releaseId accountId state";

describeEachDatabase("change events: one per transition, on both surfaces", (provider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  const newestId = async () => (await service.db.changeEvent.findFirstOrThrow({ orderBy: { id: "desc" } })).id;
  const eventsAfter = (marker: string) => service.db.changeEvent.findMany({ where: { id: { gt: marker } }, orderBy: { id: "asc" } });

  /** The event as REST shows it. */
  const restView = (event: ChangeEvent) => ({
    id: event.id,
    type: event.type,
    occurredAt: event.occurredAt.toISOString(),
    actorAccountId: event.actorAccountId,
    environmentId: event.environmentId,
    releaseId: event.releaseId,
    accountId: event.accountId,
    state: JSON.parse(event.state),
  });

  /** Runs `change`, then expects exactly the events `expected` describes, in order, the same on every surface that lists them. */
  async function expectEvents(
    change: () => Promise<unknown>,
    expected: (Partial<Omit<ChangeEvent, "state">> & { state?: Record<string, unknown> })[],
    readers: { environment?: Member; account?: Member } = {},
  ) {
    const marker = await newestId();
    await change();
    const events = await eventsAfter(marker);
    expect(events.map((event) => ({ ...event, state: JSON.parse(event.state) }))).toMatchObject(expected);
    expect(events).toHaveLength(expected.length);
    for (const event of events) expect(event.id > marker).toBe(true);
    const views = events.map(restView);

    const environmentIds = [...new Set(events.flatMap((event) => (event.environmentId ? [event.environmentId] : [])))];
    for (const environmentId of environmentIds) {
      const reader = readers.environment ?? world.owner;
      const ofEnvironment = views.filter((view) => view.environmentId === environmentId);
      const rest = await reader.http.get(`/v1/envs/${environmentId}/events?after=${marker}`);
      expect({ status: rest.status, body: rest.body }).toEqual({ status: 200, body: { values: ofEnvironment, nextCursor: null } });
      const graph = await reader.http.graphql(
        `query($id: UUID!, $after: String) { environment(id: $id) { events(after: $after) { nodes { ${EVENT_FIELDS} } } } }`,
        { id: environmentId, after: marker },
      );
      expect(graph.body.data.environment.events.nodes).toEqual(
        ofEnvironment.map(({ id, type, ...rest }) => ({ uuid: id, type: type.toUpperCase().replace(/-/g, "_"), ...rest })),
      );
    }
    for (const accountId of new Set(events.map((event) => event.accountId))) {
      const reader = readers.account ?? world.owner;
      const ofAccount = views.filter((view) => view.accountId === accountId);
      const http = reader.account.id === accountId ? reader.http : world.admin;
      const rest = await http.get(`/v1/accounts/${accountId}/events?after=${marker}`);
      expect({ status: rest.status, body: rest.body }).toEqual({ status: 200, body: { values: ofAccount, nextCursor: null } });
      const graph = await http.graphql(`query($id: UUID!, $after: String) { account(id: $id) { events(after: $after) { nodes { uuid type } } } }`, {
        id: accountId,
        after: marker,
      });
      expect(graph.body.data.account.events.nodes.map((node: { uuid: string }) => node.uuid)).toEqual(ofAccount.map((view) => view.id));
    }
    return events;
  }

  const applyAs = async (member: Member, environmentId: string, request: unknown) => {
    const response = await member.http.post(paths.apply(environmentId), request);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };

  it("release published, superseded (with the grant that follows it moved), de-published and restored", async () => {
    const environment = await world.environmentOf(world.owner);
    const name = uniqueName("events");
    const definition = definitionFor(name, "1.0.0");
    let releaseId = "";
    await expectEvents(async () => {
      releaseId = (await applyAs(world.owner, environment.id, body({ publications: [publication(definition)] }))).releases[0].id;
    }, [
      {
        type: "release-published",
        environmentId: environment.id,
        accountId: world.owner.account.id,
        actorAccountId: world.owner.account.id,
        state: { name, version: "1.0.0", lifecycle: "published" },
      },
    ]);
    expect((await eventsAfter("0"))!.some((event) => event.releaseId === releaseId)).toBe(true);

    const coordinates = { type: "ByCoordinates", account: world.owner.account.email, name, version: "1.0.0" };
    let grantId = "";
    await expectEvents(async () => {
      const created = await world.owner.http.post(`/v1/envs/${environment.id}/tool-middlewares`, { release: coordinates });
      grantId = created.body.grant.id;
    }, [{ type: "grant-created", environmentId: environment.id, releaseId, state: { followCoordinates: true, lifecycle: "active" } }]);

    let newReleaseId = "";
    const events = await expectEvents(async () => {
      newReleaseId = (await applyAs(world.owner, environment.id, body({ publications: [publication(otherContent(definition))] }))).releases[0].id;
    }, [
      { type: "release-superseded", releaseId, environmentId: null, state: { lifecycle: "superseded" } },
      { type: "release-published", environmentId: environment.id, state: { lifecycle: "published" } },
      { type: "grant-moved", environmentId: environment.id, state: { id: grantId } },
    ]);
    expect(events[1]!.releaseId).toBe(newReleaseId);
    expect(JSON.parse(events[2]!.state).releaseId).toBe(newReleaseId);

    await expectEvents(
      () => world.owner.http.delete(`/v1/tool-releases/${newReleaseId}`),
      [{ type: "release-de-published", releaseId: newReleaseId, actorAccountId: world.owner.account.id, state: { lifecycle: "de-published" } }],
    );
    await expectEvents(
      () => world.owner.http.post(`/v1/tool-releases/${newReleaseId}/restore`),
      [{ type: "release-restored", releaseId: newReleaseId, state: { lifecycle: "published" } }],
    );
    // The release's state never carries its definition.
    for (const event of await service.db.changeEvent.findMany({ where: { releaseId: newReleaseId, type: { startsWith: "release-" } } })) {
      expect(JSON.parse(event.state)).not.toHaveProperty("definition");
    }
  });

  it("grant created, flags changed, deleted and restored, seen by a viewer of the environment", async () => {
    const release = await world.publish(world.owner, uniqueName("grant-events"), "1.0.0");
    const environmentId = world.environment.id;
    const readers = { environment: world.viewer };
    let grantId = "";
    await expectEvents(
      async () => {
        const created = await world.deployer.http.post(`/v1/envs/${environmentId}/tool-middlewares`, {
          release: { type: "ById", releaseId: release.id },
          automatic: true,
        });
        grantId = created.body.grant.id;
      },
      [
        {
          type: "grant-created",
          environmentId,
          releaseId: release.id,
          accountId: world.owner.account.id,
          actorAccountId: world.deployer.account.id,
          state: { automatic: true },
        },
      ],
      readers,
    );
    await expectEvents(
      () => world.deployer.http.post(`/v1/envs/${environmentId}/tool-middlewares`, { release: { type: "ById", releaseId: release.id }, automatic: false }),
      [{ type: "grant-flags-changed", state: { id: grantId, automatic: false } }],
      readers,
    );
    // Creating what exists changes nothing, and records nothing.
    await expectEvents(
      () => world.deployer.http.post(`/v1/envs/${environmentId}/tool-middlewares`, { release: { type: "ById", releaseId: release.id } }),
      [],
      readers,
    );
    await expectEvents(
      () => world.deployer.http.delete(`/v1/environment-tool-middleware-grants/${grantId}`),
      [{ type: "grant-deleted", state: { id: grantId, lifecycle: "deleted" }, actorAccountId: world.deployer.account.id }],
      readers,
    );
    await expectEvents(
      () => world.owner.http.post(`/v1/environment-tool-middleware-grants/${grantId}/restore`),
      [{ type: "grant-restored", state: { id: grantId, lifecycle: "active" }, actorAccountId: world.owner.account.id }],
      readers,
    );
  });

  it("environment created and shared, account created, token issued and revoked (once)", async () => {
    const newcomer = await world.member();
    let environmentId = "";
    await expectEvents(async () => {
      const created = await world.owner.http.graphql(`mutation($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { uuid } }`, {
        input: { accountId: world.owner.account.id, name: uniqueName("env") },
      });
      environmentId = created.body.data.createEnvironment.uuid;
    }, [{ type: "environment-created", accountId: world.owner.account.id, actorAccountId: world.owner.account.id }]);
    expect((await eventsAfter("0")).at(-1)!.environmentId).toBe(environmentId);

    // An owner's share is an offer, in the offered account's events only; accepting it shares.
    await expectEvents(
      () =>
        world.owner.http.graphql(`mutation($input: ShareEnvironmentInput!) { shareEnvironment(input: $input) { role } }`, {
          input: { environmentId, accountId: newcomer.account.id, role: "VIEWER" },
        }),
      [
        {
          type: "environment-share-offered",
          environmentId: null,
          accountId: newcomer.account.id,
          actorAccountId: world.owner.account.id,
          state: { environmentId, accountId: newcomer.account.id, role: "viewer", acceptedAt: null },
        },
      ],
      { account: newcomer },
    );
    await expectEvents(
      () => newcomer.http.graphql(`mutation($id: UUID!) { acceptEnvironmentShare(environmentId: $id) { role } }`, { id: environmentId }),
      [
        {
          type: "environment-shared",
          environmentId,
          accountId: world.owner.account.id,
          actorAccountId: newcomer.account.id,
          state: { accountId: newcomer.account.id, role: "viewer" },
        },
      ],
    );
    // Accepting again changes nothing, and records nothing.
    await expectEvents(() => newcomer.http.graphql(`mutation($id: UUID!) { acceptEnvironmentShare(environmentId: $id) { role } }`, { id: environmentId }), []);

    await expectEvents(
      () =>
        world.admin.graphql(`mutation($input: CreateAccountInput!) { createAccount(input: $input) { uuid } }`, {
          input: { name: "Carol", email: `${uniqueName("carol")}@example.test` },
        }),
      [{ type: "account-created", environmentId: null, state: { name: "Carol", admin: false } }],
    );

    let tokenId = "";
    const [issued] = await expectEvents(
      async () => {
        const response = await newcomer.http.graphql(`mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { token { uuid } } }`, {
          input: { accountId: newcomer.account.id, name: "ci" },
        });
        tokenId = response.body.data.createApiToken.token.uuid;
      },
      [{ type: "api-token-issued", accountId: newcomer.account.id, actorAccountId: newcomer.account.id, state: { name: "ci", revokedAt: null } }],
      { account: newcomer },
    );
    expect(JSON.parse(issued!.state)).not.toHaveProperty("secretHash");
    const revoke = () => newcomer.http.graphql(`mutation($id: UUID!) { revokeApiToken(id: $id) { revokedAt } }`, { id: tokenId });
    await expectEvents(revoke, [{ type: "api-token-revoked", state: { id: tokenId } }], { account: newcomer });
    await expectEvents(revoke, [], { account: newcomer });
  });

  it("a rolled-back apply leaves no event, and neither does a refused one", async () => {
    const environment = await world.environmentOf(world.owner);
    const changes = body({ publications: [publication(definitionFor(uniqueName("rolled-back"), "1.0.0"))] });
    await expectEvents(async () => {
      const rollback = new Error("rolled back after apply");
      await expect(
        writeTransaction(service.db, [], async (tx) => {
          const applied = await applyChanges(tx as Database, world.owner.account, environment.id, changes as never);
          expect(applied.releases).toHaveLength(1);
          throw rollback;
        }),
      ).rejects.toBe(rollback);
    }, []);
    await expectEvents(async () => {
      const refused = await world.viewer.http.post(paths.apply(world.environment.id), changes);
      expect(refused.status).toBe(403);
    }, []);
  });

  it("viewers see an environment's events, strangers get 404, and an account's events are its own", async () => {
    const environmentId = world.environment.id;
    expect((await world.viewer.http.get(`/v1/envs/${environmentId}/events`)).status).toBe(200);
    expect((await world.stranger.http.get(`/v1/envs/${environmentId}/events`)).body.code).toBe("ENVIRONMENT_NOT_FOUND");
    expect((await world.stranger.http.get(`/v1/accounts/${world.owner.account.id}/events`)).body.code).toBe("ACCOUNT_NOT_FOUND");
    expect((await world.owner.http.get(`/v1/accounts/${world.owner.account.id}/events`)).status).toBe(200);
    expect((await world.admin.get(`/v1/accounts/${world.owner.account.id}/events`)).status).toBe(200);
    // node(id:) answers exactly what the connections list.
    const listed = await world.viewer.http.graphql(`query($id: UUID!) { environment(id: $id) { events(first: 1) { nodes { id uuid } } } }`, {
      id: environmentId,
    });
    const [event] = listed.body.data.environment.events.nodes;
    const fetchNode = (member: Member) => member.http.graphql(`query($id: ID!) { node(id: $id) { ... on ChangeEvent { uuid } } }`, { id: event.id });
    expect((await fetchNode(world.viewer)).body.data.node).toEqual({ uuid: event.uuid });
    expect((await fetchNode(world.stranger)).body.data.node).toBeNull();
    const bad = await world.owner.http.get(`/v1/envs/${environmentId}/events?after=nope&limit=0`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(['query.limit: "0" is not an integer from 1 to 500', 'query.after: "nope" is not an event id']);
  });

  it("pages in id order with after and limit; nextCursor is the last event's id while more follow", async () => {
    const all = await service.db.changeEvent.findMany({ where: { accountId: world.owner.account.id }, orderBy: { id: "asc" } });
    expect(all.length).toBeGreaterThan(3);
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: { status: number; body: any } = await world.owner.http.get(
        `/v1/accounts/${world.owner.account.id}/events?limit=2${after ? `&after=${after}` : ""}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.values.map((value: { id: string }) => value.id));
      if (page.body.nextCursor === null) break;
      expect(page.body.nextCursor).toBe(page.body.values.at(-1).id);
      after = page.body.nextCursor;
    }
    expect(seen).toEqual(all.map((event) => event.id));
    const last = await world.owner.http.graphql(`query($id: UUID!) { account(id: $id) { events(last: 2) { nodes { uuid } pageInfo { hasPreviousPage } } } }`, {
      id: world.owner.account.id,
    });
    expect(last.body.data.account.events).toEqual({ nodes: all.slice(-2).map((event) => ({ uuid: event.id })), pageInfo: { hasPreviousPage: true } });
  });
});
