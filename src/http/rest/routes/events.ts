// REST routes for change events (docs/events.md): an environment's and an account's, a page at a
// time. `after` is an event id (the last one a client has seen), so polling never skips an event.
import { z } from "zod";
import { invalidRequest } from "../../../domain/errors.js";
import { CHANGE_EVENT_TYPES } from "../../../domain/events.js";
import { specWordOf } from "../enum-words.js";
import { graphql, type ResultOf } from "../graphql.js";
import { limitOf, limitParameter, pageBody } from "../paging.js";
import { present, restRoute, type RestContract, type RestInput, type RestRoute } from "../route.js";
import { ChangeEventList, type RestChangeEvent } from "../views.js";

const CHANGE_EVENT_VIEW = graphql(`
  fragment ChangeEventView on ChangeEvent {
    id: uuid
    type
    occurredAt
    actorAccountId
    environmentId
    releaseId
    accountId
    state
  }
`);

type ChangeEventView = ResultOf<typeof CHANGE_EVENT_VIEW>;

/** An event as REST shows it: the type as the spec's lowercase words (`grant-deleted`). */
function toRestEvent(event: ChangeEventView): RestChangeEvent {
  // `state` is always a row stored as a JSON object (domain/events.ts).
  return { ...event, type: specWordOf(CHANGE_EVENT_TYPES, event.type), state: event.state as RestChangeEvent["state"] };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Events of a page when `limit` is absent. */
const EVENT_PAGE_SIZE = 50;

/** `?after=<event id>&limit=`: both optional; the page holds up to `limit` (default 50) events after `after`. */
function pageOf({ query, params }: RestInput, pathParam: string): { limit: number; after: string | null } {
  const after = query.get("after");
  const problems: string[] = [];
  const value = params[pathParam] ?? "";
  if (!UUID.test(value)) problems.push(`path.${pathParam}: "${value}" is not a UUID`);
  const limit = limitOf(query, EVENT_PAGE_SIZE, problems);
  if (after !== null && !UUID.test(after)) problems.push(`query.after: "${after}" is not an event id`);
  if (problems.length > 0) throw invalidRequest(problems);
  return { limit, after };
}

const pageQuery: RestContract["query"] = {
  after: { schema: z.guid(), description: "An event id; the page starts after it (the last event you handled). Without it, at the oldest event." },
  limit: limitParameter(EVENT_PAGE_SIZE),
};

const contractOf = (summary: string, description: string): RestContract => ({
  tag: "Events",
  summary,
  description,
  query: pageQuery,
  success: { status: 200, schema: ChangeEventList },
});

export const EVENT_ROUTES: RestRoute[] = [
  restRoute({
    name: "list environment events",
    method: "GET",
    path: "/v1/envs/:environmentId/events",
    contract: contractOf("List an environment's change events", "Events of the environment, oldest first; anyone who can see the environment may read them."),
    document: graphql(
      `
      query EnvironmentEvents($environmentId: UUID!, $limit: Int, $after: String) {
        environment(id: $environmentId) {
          events(first: $limit, after: $after) {
            edges { node { ...ChangeEventView } }
            pageInfo { hasNextPage endCursor }
          }
        }
      }
    `,
      [CHANGE_EVENT_VIEW],
    ),
    variables: (input) => ({ environmentId: input.params.environmentId, ...pageOf(input, "environmentId") }),
    respond: (data) => pageBody(present(data.environment, "environment").events, toRestEvent),
  }),
  restRoute({
    name: "list account events",
    method: "GET",
    path: "/v1/accounts/:accountId/events",
    contract: contractOf(
      "List an account's change events",
      "Events of what the account owns (releases, environments with their grants and shares, tokens), oldest first; the account itself and administrators may read them.",
    ),
    document: graphql(
      `
      query AccountEvents($accountId: UUID!, $limit: Int, $after: String) {
        account(id: $accountId) {
          events(first: $limit, after: $after) {
            edges { node { ...ChangeEventView } }
            pageInfo { hasNextPage endCursor }
          }
        }
      }
    `,
      [CHANGE_EVENT_VIEW],
    ),
    variables: (input) => ({ accountId: input.params.accountId, ...pageOf(input, "accountId") }),
    respond: (data) => pageBody(present(data.account, "account").events, toRestEvent),
  }),
];
