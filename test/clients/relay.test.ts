// Relay with its default configuration against a running toolgate. relay-compiler compiles the app
// in test/clients/relay against schema.graphql (so a schema change breaks this suite), and
// relay-runtime pages its @connection, refetches a @refetchable fragment through node(id:) and
// commits mutations whose results the normalised store shows. SQLite only: a client sees the same
// graph on either database, and the graph's own suites cover both.
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ConcreteRequest, Environment, ReaderFragment } from "relay-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/service.js";
import { createRelayEnvironment } from "./relay/relay-environment.js";
import { commit, loadNext, loadQuery, readFragment, refetch, type FragmentData } from "./relay/relay-hooks.js";
import { createClientWorld, grantUuidsInOneRequest, takeOverByHand, PAGE_SIZE, watchRequests, type ClientWorld } from "./support.js";

const RELAY_APP = fileURLToPath(new URL("./relay", import.meta.url));
const relayCompiler: string = createRequire(import.meta.url)("relay-compiler");

/** Runs relay-compiler the way `npm run relay` does: in the app's directory, with its relay.config.json. */
async function compileRelayApp(): Promise<string> {
  await rm(new URL("./relay/__generated__/", import.meta.url), { recursive: true, force: true });
  const { stdout, stderr } = await promisify(execFile)(relayCompiler, [], { cwd: RELAY_APP });
  return stdout + stderr;
}

// Loaded after compiling, as babel-plugin-relay would load them in place of the `graphql` tags. Vite
// must not resolve the import when it transforms this file: the artifacts do not exist yet.
async function artifact<T>(name: string): Promise<T> {
  const file = new URL(`./relay/__generated__/${name}.graphql.ts`, import.meta.url).href;
  return (await import(/* @vite-ignore */ file)).default as T;
}

describe("Relay (relay-compiler and relay-runtime, default configuration)", () => {
  let compilerOutput: string;
  let service: TestService;
  let world: ClientWorld;
  let requests: ReturnType<typeof watchRequests>;
  let relay: Environment;
  let documents: {
    environmentGrantsQuery: ConcreteRequest;
    environmentGrants: ReaderFragment;
    grantDetails: ReaderFragment;
    createGrant: ConcreteRequest;
    deleteGrant: ConcreteRequest;
  };

  beforeAll(async () => {
    compilerOutput = await compileRelayApp();
    documents = {
      environmentGrantsQuery: await artifact("environmentGrantsQuery"),
      environmentGrants: await artifact("environmentGrants_environment"),
      grantDetails: await artifact("grantDetails_grant"),
      createGrant: await artifact("grantDetailsCreateMutation"),
      deleteGrant: await artifact("grantDetailsDeleteMutation"),
    };
    service = await startTestService("sqlite");
    world = await createClientWorld(service);
    requests = watchRequests(`${service.url}/graphql`);
  });
  afterAll(async () => {
    requests?.restore();
    await service?.stopAndDrop();
  });

  /** A fresh app: its own store, the environment query loaded, and the fragment's first page. */
  async function openEnvironmentGrants() {
    relay = createRelayEnvironment(`${service.url}/graphql`, world.owner.token);
    const data = await loadQuery(relay, documents.environmentGrantsQuery, { environmentId: world.environment.id });
    return { name: data.environment.name as string, environmentRef: data.environment as unknown };
  }
  const grantsOf = (environmentRef: unknown) => readFragment(relay, documents.environmentGrants, environmentRef).grants;
  const grantDetailsOf = (grantRef: unknown) => readFragment(relay, documents.grantDetails, grantRef);

  it("relay-compiler compiles the app's documents against schema.graphql", () => {
    expect(compilerOutput).toContain("Compilation completed");
  });

  it("pages Environment.grants to its end with the @connection fragment's pagination query", async () => {
    const { name, environmentRef } = await openEnvironmentGrants();
    expect(name).toBe(world.environment.name);
    expect(grantsOf(environmentRef).edges).toHaveLength(PAGE_SIZE);
    let pagesLoaded = 1;
    while (await loadNext(relay, documents.environmentGrants, environmentRef, PAGE_SIZE)) pagesLoaded += 1;
    const grants = grantsOf(environmentRef);
    expect(grants.edges.map((edge: FragmentData) => edge.node.uuid)).toEqual(await grantUuidsInOneRequest(world));
    expect(grants.pageInfo.hasNextPage).toBe(false);
    expect(pagesLoaded).toBe(Math.ceil(world.grants.length / PAGE_SIZE));
  });

  it("refetches a @refetchable fragment through node(id:) and sees what changed on the server", async () => {
    const { environmentRef } = await openEnvironmentGrants();
    const grantRef = grantsOf(environmentRef).edges[0].node;
    const before = grantDetailsOf(grantRef);
    expect(before.automatic).toBe(true);
    await takeOverByHand(world, before.uuid);
    expect(grantDetailsOf(grantRef).automatic).toBe(true);

    const refetched = await refetch(relay, documents.grantDetails, grantRef);
    expect(refetched).toMatchObject({ id: before.id, uuid: before.uuid, automatic: false });
    expect(grantDetailsOf(grantRef).automatic).toBe(false);
  });

  it("shows a created grant in the connection (@appendNode) without refetching it", async () => {
    const { environmentRef } = await openEnvironmentGrants();
    while (await loadNext(relay, documents.environmentGrants, environmentRef, PAGE_SIZE));
    const connection = grantsOf(environmentRef);
    requests.mark();

    const response = await commit(relay, documents.createGrant, {
      environmentId: world.environment.id,
      releaseId: world.ungranted.id,
      connections: [connection.__id],
    });

    const edges = grantsOf(environmentRef).edges as FragmentData[];
    expect(edges).toHaveLength(connection.edges.length + 1);
    const created = grantDetailsOf(edges.at(-1)!.node);
    expect(created).toMatchObject({
      id: response.createGrant.id,
      lifecycle: "ACTIVE",
      release: { name: world.ungranted.name, version: world.ungranted.version },
    });
    expect(requests.since().map((request) => request.operationName)).toEqual(["grantDetailsCreateMutation"]);
  });

  it("shows a deleted grant's lifecycle and takes it out of the connection (@deleteEdge) without refetching", async () => {
    const { environmentRef } = await openEnvironmentGrants();
    const connection = grantsOf(environmentRef);
    const deletedRef = connection.edges[0].node;
    const deleted = grantDetailsOf(deletedRef);
    requests.mark();

    await commit(relay, documents.deleteGrant, { uuid: deleted.uuid, connections: [connection.__id] });

    expect(grantDetailsOf(deletedRef)).toMatchObject({ id: deleted.id, lifecycle: "DELETED" });
    expect(grantsOf(environmentRef).edges.map((edge: FragmentData) => edge.node.uuid)).not.toContain(deleted.uuid);
    expect(requests.since().map((request) => request.operationName)).toEqual(["grantDetailsDeleteMutation"]);
  });
});
