// REST routes for validate (service.md 4.1, operation 3) and its executing extension, apply.
import { invalidRequest } from "../../../domain/errors.js";
import { PUBLICATION_ACTIONS } from "../../../domain/publications.js";
import { isJsonObject } from "../body.js";
import { specWordOf } from "../enum-words.js";
import type { RestInput, RestRoute } from "../route.js";
import { creationForGraphQL, toGrantView, GRANT_VIEW, type GrantNode } from "./grants.js";
import { TOOL_RELEASE_FIELDS, toRestRelease, type ToolReleaseFields } from "./releases.js";

const PLAN_ENTRY_FIELDS = /* GraphQL */ `
  fragment PlanEntryFields on PublicationPlanEntry {
    action
    name
    version
    reason
  }
`;

interface PlanEntry {
  action: string;
  name: string;
  version: string;
  reason: string;
}

/** A plan entry with the spec's action word (`NO_CHANGE` → `noChange`). */
const toRestPlanEntry = (entry: PlanEntry): PlanEntry => ({ ...entry, action: specWordOf(PUBLICATION_ACTIONS, entry.action) });

/** The body's grant creations with their selector types as GraphQL names them; anything else as sent. */
function changesForGraphQL(body: unknown): unknown {
  if (!isJsonObject(body) || !isJsonObject(body.grantReconciliation) || !Array.isArray(body.grantReconciliation.creations)) return body;
  const { grantReconciliation } = body;
  return { ...body, grantReconciliation: { ...grantReconciliation, creations: (grantReconciliation.creations as unknown[]).map(creationForGraphQL) } };
}

/** The body becomes the `$body` variable, so GraphQL's coercion errors read "at body.publications[0].name". */
function changesOf(input: RestInput): { environmentId: string | undefined; body: unknown } {
  if (input.body === undefined) {
    throw invalidRequest(['body: required, e.g. {"grantReconciliation": {"creations": [], "deletions": []}, "publications": []}']);
  }
  return { environmentId: input.params.environmentId, body: changesForGraphQL(input.body) };
}

export const PUBLICATION_ROUTES: RestRoute[] = [
  {
    name: "validate tool middlewares",
    method: "POST",
    path: "/v1/envs/:environmentId/tool-middlewares/validate",
    document: /* GraphQL */ `
      query ValidateToolMiddlewares($environmentId: UUID!, $body: ToolMiddlewareChangesInput!) {
        validateToolMiddlewares(environmentId: $environmentId, input: $body) {
          publicationPlan { ...PlanEntryFields }
        }
      }
      ${PLAN_ENTRY_FIELDS}
    `,
    variables: changesOf,
    respond: (data) => {
      const result = data.validateToolMiddlewares as { publicationPlan: PlanEntry[] };
      return { status: 200, body: { publicationPlan: result.publicationPlan.map(toRestPlanEntry) } };
    },
  },
  {
    name: "apply tool middlewares",
    method: "POST",
    path: "/v1/envs/:environmentId/tool-middlewares/apply",
    document: /* GraphQL */ `
      mutation ApplyToolMiddlewares($environmentId: UUID!, $body: ToolMiddlewareChangesInput!) {
        applyToolMiddlewares(environmentId: $environmentId, input: $body) {
          publicationPlan { ...PlanEntryFields }
          releases { ...ToolReleaseFields }
          grants { ...GrantView }
          deletedGrantIds
        }
      }
      ${PLAN_ENTRY_FIELDS}
      ${TOOL_RELEASE_FIELDS}
      ${GRANT_VIEW}
    `,
    variables: changesOf,
    respond: (data) => {
      const result = data.applyToolMiddlewares as { publicationPlan: PlanEntry[]; releases: ToolReleaseFields[]; grants: GrantNode[]; deletedGrantIds: string[] };
      return {
        status: 200,
        body: {
          publicationPlan: result.publicationPlan.map(toRestPlanEntry),
          releases: result.releases.map(toRestRelease),
          grants: result.grants.map(toGrantView),
          deletedGrantIds: result.deletedGrantIds,
        },
      };
    },
  },
];
