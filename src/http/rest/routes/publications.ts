// REST routes for validate (service.md 4.1, operation 3) and its executing extension, apply.
import { invalidRequest } from "../../../domain/errors.js";
import type { RestInput, RestRoute } from "../route.js";
import { toGrantView, GRANT_VIEW, type GrantNode } from "./grants.js";
import { TOOL_RELEASE_FIELDS, toRestRelease, type ToolReleaseFields } from "./releases.js";

const PLAN_ENTRY_FIELDS = /* GraphQL */ `
  fragment PlanEntryFields on PublicationPlanEntry {
    action
    name
    version
    reason
  }
`;

/** The body becomes the `$body` variable, so GraphQL's coercion errors read "at body.publications[0].name". */
function changesOf(input: RestInput): { environmentId: string | undefined; body: unknown } {
  if (input.body === undefined) {
    throw invalidRequest(['body: required, e.g. {"grantReconciliation": {"creations": [], "deletions": []}, "publications": []}']);
  }
  return { environmentId: input.params.environmentId, body: input.body };
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
    respond: (data) => ({ status: 200, body: data.validateToolMiddlewares }),
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
      const result = data.applyToolMiddlewares as { publicationPlan: unknown[]; releases: ToolReleaseFields[]; grants: GrantNode[]; deletedGrantIds: string[] };
      return {
        status: 200,
        body: {
          publicationPlan: result.publicationPlan,
          releases: result.releases.map(toRestRelease),
          grants: result.grants.map(toGrantView),
          deletedGrantIds: result.deletedGrantIds,
        },
      };
    },
  },
];
