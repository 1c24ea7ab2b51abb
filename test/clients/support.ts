// The registry the client suites page through: the world's owner, an environment holding more grants
// than one page (automatic, as reconciliation creates them), and a published release not yet granted
// there (for createGrant).
import { vi } from "vitest";
import type { Grant, ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { createGrant } from "../../src/domain/grants.js";
import { uniqueName } from "../graphql/support.js";
import type { TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";

/** Page size the clients ask for; GRANTED is more than two pages of it. */
export const PAGE_SIZE = 2;
const GRANTED = 5;

export interface ClientWorld extends World {
  grants: Grant[];
  ungranted: ToolRelease;
}

export async function createClientWorld(service: TestService): Promise<ClientWorld> {
  const world = await createWorld(service);
  const grants: Grant[] = [];
  for (let index = 0; index < GRANTED; index += 1) {
    const release = await world.publish(world.owner, uniqueName("paged"), "1.0.0");
    grants.push(
      await createGrant(service.db, world.owner.account, world.environment.id, { release: { type: "ById", releaseId: release.id }, automatic: true }),
    );
  }
  const ungranted = await world.publish(world.owner, uniqueName("ungranted"), "1.0.0");
  return { ...world, grants, ungranted };
}

/** Another client takes one of the world's grants over by hand: a manual createGrant makes it `automatic: false`. */
export async function takeOverByHand(world: ClientWorld, grantUuid: string): Promise<void> {
  const granted = world.grants.find((grant) => grant.id === grantUuid);
  if (!granted) throw new Error(`takeOverByHand: ${grantUuid} is not one of the world's grants`);
  await createGrant(world.service.db, world.owner.account, world.environment.id, { release: { type: "ById", releaseId: granted.releaseId }, automatic: false });
}

/** The UUIDs of the environment's grants, in the connection's order, read in one request. */
export async function grantUuidsInOneRequest(world: World): Promise<string[]> {
  const result = await world.owner.http.graphql(`query ($id: UUID!) { environment(id: $id) { grants(first: 50) { nodes { uuid } } } }`, {
    id: world.environment.id,
  });
  if (result.body.errors) throw new Error(JSON.stringify(result.body.errors));
  return result.body.data.environment.grants.nodes.map((node: { uuid: string }) => node.uuid);
}

export interface RecordedRequest {
  method: string;
  operationName: string | undefined;
}

/**
 * Watches the requests a client sends to `url` through the global fetch (they pass through
 * unchanged): their method and operation. `since()` lists the ones sent after the last `mark()`.
 */
export function watchRequests(url: string) {
  const spy = vi.spyOn(globalThis, "fetch");
  let from = 0;
  const describeCall = ([input, init]: Parameters<typeof fetch>): RecordedRequest[] => {
    const target = input instanceof Request ? input.url : String(input);
    if (!target.startsWith(url)) return [];
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const parameters = new URL(target).searchParams;
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : {};
    const query: string | undefined = parameters.get("query") ?? body.query;
    return [{ method, operationName: parameters.get("operationName") ?? body.operationName ?? query?.match(/^\s*(?:query|mutation)\s+(\w+)/)?.[1] }];
  };
  return {
    mark: () => {
      from = spy.mock.calls.length;
    },
    since: (): RecordedRequest[] => spy.mock.calls.slice(from).flatMap(describeCall),
    restore: () => spy.mockRestore(),
  };
}
