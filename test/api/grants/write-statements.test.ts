// A grant creation reads what its rules check in as few statements as the environment's lock allows:
// the release, then the environment with the actor's share, its owner's plan, the existing row of
// that release and the active grant count together. On PostgreSQL the stream heads, the event and its
// NOTIFY are one statement. Statement counts, not timings: every statement through Prisma costs
// a few hundred microseconds of CPU (docs/performance.md, "Writes").
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../helpers/service.js";
import { createWorld, type World } from "../../helpers/world.js";
import { startCountingService, type CountingService } from "../../graphql/counting-service.js";

describeEachDatabase("the statements of a grant creation and deletion", (provider) => {
  let service: CountingService;
  let world: World;
  beforeAll(async () => {
    service = await startCountingService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  /** What a statement does, in a word: its verb and the first table it names. */
  const kind = (sql: string) => {
    if (sql.startsWith("WITH")) return sql.includes("pg_notify") ? "heads+events+notify" : "WITH";
    if (sql.includes("pg_advisory_xact_lock")) return "lock";
    const verb = sql.split(" ", 1)[0]!;
    // A planned read names its row's table as "t0"; its relations' subqueries come first in the text.
    const table = /FROM "(\w+)" AS "t0"/.exec(sql)?.[1] ?? /(?:FROM|INTO|UPDATE) [`"]?(?:main|public)?[`"]?\.?[`"](\w+)[`"]/.exec(sql)?.[1] ?? "";
    return `${verb} ${table}`.trim();
  };
  /** What follows COMMIT: a stored definition's text (definition-texts.ts) named as such. */
  const afterCommit = (statements: string[]) =>
    statements
      .slice(statements.map(kind).lastIndexOf("COMMIT") + 1)
      .map((sql) => (/SELECT "id", "definition" FROM "ToolRelease"/.test(sql) ? "definition text" : kind(sql)));
  /** The transaction's statements: from the first after the actor's lookups to COMMIT. */
  const transactionOf = (statements: string[]) => {
    const kinds = statements.map(kind);
    const first = kinds.findIndex((k) => k !== "SELECT ApiToken" && k !== "SELECT Account");
    return kinds.slice(first, kinds.indexOf("COMMIT") + 1);
  };

  it("creates with one read of the release and one of the environment, its grant state included, one event statement on PostgreSQL, and deletes without reading the grant back", async () => {
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const granted = await world.publish(owner, "counted-first", "1.0.0");
    const release = await world.publish(owner, "counted", "1.0.0");
    await owner.http.post(`/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: granted.id } });

    let grantId = "";
    const created = await service.countQueries(async () => {
      const response = await owner.http.post(`/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: release.id } });
      expect(response.status).toBe(200);
      grantId = response.body.grant.id;
    });
    expect(transactionOf(created.statements)).toEqual(
      provider === "postgresql"
        ? ["lock", "SELECT ToolRelease", "SELECT Environment", "INSERT Grant", "heads+events+notify", "COMMIT"]
        : ["SELECT ToolRelease", "SELECT Environment", "INSERT Grant", "INSERT StreamHead", "INSERT ChangeEvent", "COMMIT"],
    );
    // The active grant count rides on the environment's statement.
    expect(created.statements.find((sql) => kind(sql) === "SELECT Environment")).toMatch(/COUNT\(/i);
    // The answer (the grant, its release and the release's owner) is what the transaction read and
    // wrote: after COMMIT only the new release's definition text is read (not yet in memory).
    expect(afterCommit(created.statements)).toEqual(["definition text"]);

    const deleted = await service.countQueries(async () => {
      expect((await owner.http.delete(`/v1/environment-tool-middleware-grants/${grantId}`)).status).toBe(204);
    });
    expect(transactionOf(deleted.statements).slice(-3)).toEqual(
      provider === "postgresql" ? ["UPDATE Grant", "heads+events+notify", "COMMIT"] : ["INSERT StreamHead", "INSERT ChangeEvent", "COMMIT"],
    );
    // The REST deletion selects the id: answered from the row the domain deleted, not read back.
    expect(deleted.statements.map(kind).at(-1)).toBe("COMMIT");
  });

  it("answers a GraphQL creation from what its transaction read when the selection asks for no more, and reads back what it does not hold", async () => {
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const [first, second] = await Promise.all([world.publish(owner, "carried", "1.0.0"), world.publish(owner, "read-back", "1.0.0")]);
    const create = (selection: string) =>
      `mutation ($environmentId: UUID!, $releaseId: UUID!) { createGrant(environmentId: $environmentId, input: { release: { type: BY_ID, releaseId: $releaseId } }) { ${selection} } }`;

    const CARRIED =
      "uuid environmentId releaseId protected automatic followCoordinates lifecycle createdAt createdById stateChangedAt stateChangedById " +
      "release { uuid ownerAccountId name version metadataVersion metadataDigest sourceDigest lifecycle owner { uuid name email } }";
    let carried: any;
    const fromTransaction = await service.countQueries(async () => {
      carried = await owner.http.graphql(create(CARRIED), {
        environmentId: environment.id,
        releaseId: first.id,
      });
    });
    expect(afterCommit(fromTransaction.statements)).toEqual([]);
    const read = await owner.http.graphql(`query ($id: UUID!) { grant(id: $id) { ${CARRIED} } }`, {
      id: carried.body.data.createGrant.uuid,
    });
    expect(carried.body.data.createGrant).toEqual(read.body.data.grant);
    expect(carried.body.data.createGrant.release.owner).toEqual({ uuid: owner.account.id, name: owner.account.name, email: owner.account.email });

    let readBack: any;
    const withEnvironment = await service.countQueries(async () => {
      readBack = await owner.http.graphql(create("uuid environment { name } release { name }"), { environmentId: environment.id, releaseId: second.id });
    });
    expect(readBack.body.data.createGrant).toMatchObject({ environment: { name: environment.name }, release: { name: "read-back" } });
    expect(afterCommit(withEnvironment.statements)).toEqual(["SELECT Grant"]);
  });

  it("applies a reconciliation reading its releases, its deletions and the existing rows once each, whatever their number", async () => {
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const [kept, first, second, created, alsoCreated] = await Promise.all(
      ["kept", "first", "second", "created", "also"].map((name) => world.publish(owner, `apply-counted-${name}`, "1.0.0")),
    );
    const automatic = async (releaseId: string) =>
      (await owner.http.post(`/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId }, automatic: true })).body.grant.id as string;
    await automatic(kept!.id);
    const deletions = [await automatic(first!.id), await automatic(second!.id)];
    const byId = (releaseId: string) => ({ release: { type: "ById", releaseId }, automatic: true });
    const applied = await service.countQueries(async () => {
      const response = await owner.http.post(`/v1/envs/${environment.id}/tool-middlewares/apply`, {
        grantReconciliation: { creations: [byId(created!.id), byId(alsoCreated!.id), byId(kept!.id)], deletions },
        publications: [],
      });
      expect(response.status).toBe(200);
      expect(response.body.grants.map((view: { release: { name: string } }) => view.release.name).sort()).toEqual([
        "apply-counted-also",
        "apply-counted-created",
        "apply-counted-kept",
      ]);
      expect([...response.body.deletedGrantIds].sort()).toEqual([...deletions].sort());
    });
    const kinds = transactionOf(applied.statements);
    // Three creations (one of a release granted already) and two deletions: each read once.
    expect(kinds.filter((k) => k === "SELECT ToolRelease")).toHaveLength(1);
    expect(kinds.filter((k) => k === "UPDATE Grant")).toHaveLength(1);
    expect(kinds.filter((k) => k === "INSERT Grant")).toHaveLength(2);
    expect(kinds.filter((k) => /COUNT\(/i.test(k))).toEqual([]);
    if (provider === "postgresql") {
      expect(kinds.filter((k) => k === "lock")).toHaveLength(1);
      expect(kinds.filter((k) => k === "SELECT Grant")).toHaveLength(2);
    }
  });

  it("still answers each refusal in its order: the environment's, the role's, then the release's", async () => {
    const owner = await world.member();
    const stranger = await world.member();
    const environment = await world.environmentOf(owner);
    const missing = "00000000-0000-7000-8000-000000000000";
    const asStranger = await stranger.http.post(`/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: missing } });
    expect([asStranger.status, asStranger.body.error?.code ?? asStranger.body.code]).toEqual([404, "ENVIRONMENT_NOT_FOUND"]);
    const asOwner = await owner.http.post(`/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: missing } });
    expect([asOwner.status, asOwner.body.error?.code ?? asOwner.body.code]).toEqual([404, "REFERENCED_TOOL_RELEASE_NOT_FOUND"]);
  });
});
