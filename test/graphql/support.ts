// Shared pieces of the GraphQL graph suites: global ids, grants through the domain layer, and
// checks of a GraphQL answer.
import { encodeGlobalID } from "@pothos/plugin-relay";
import { expect } from "vitest";
import type { Environment, Grant, ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { createGrant } from "../../src/domain/grants.js";
import { expectGraphQLErrorStatus, type HttpResult } from "../helpers/http.js";
import type { Member, World } from "../helpers/world.js";

export type GraphQLResult = HttpResult<{ data?: any; errors?: any[] }>;

/** The Relay global id (the `id` field) of a stored object. */
export const globalId = (typename: "Account" | "Environment" | "ToolRelease" | "Grant" | string, id: string) => encodeGlobalID(typename, id);

let sequence = 0;
/** A middleware name no other test uses. */
export const uniqueName = (prefix = "tool") => `${prefix}-${(++sequence).toString(36)}`;

/** Grants `release` in `environment` as `by` (default: the environment's owner, world.owner). */
export function grant(world: World, environment: Environment, release: ToolRelease, by: Member = world.owner): Promise<Grant> {
  return createGrant(world.service.db, by.account, environment.id, { release: { type: "ById", releaseId: release.id } });
}

/** The answer carried data and no errors. */
export function dataOf(result: GraphQLResult): any {
  expect(result.body.errors, JSON.stringify(result.body.errors)).toBeUndefined();
  expect(result.status).toBe(200);
  return result.body.data;
}

/** The answer failed with exactly one error, of `code` and `status` (the response's status: expectGraphQLErrorStatus). */
export function expectGraphQLError(result: GraphQLResult, code: string, status: number): void {
  expect(result.body.errors?.map((error) => error.extensions?.code)).toEqual([code]);
  expectGraphQLErrorStatus(result, status);
}

export interface Page<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** `edges { cursor node { … } } pageInfo { … }` → the nodes and the page info. */
export function pageOf<T>(connection: { edges: { node: T }[]; pageInfo: Page<T>["pageInfo"] }): Page<T> {
  return { nodes: connection.edges.map((edge) => edge.node), pageInfo: connection.pageInfo };
}

export const PAGE_INFO = "pageInfo { hasNextPage hasPreviousPage startCursor endCursor }";
export const PAGE_ARGUMENTS = "$first: Int, $after: String, $last: Int, $before: String";
export const PAGE_VARIABLES = "first: $first, after: $after, last: $last, before: $before";
