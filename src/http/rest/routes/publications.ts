// REST routes for validate (operation 3) and its executing extension, apply.
import { invalidRequest } from "../../../domain/errors.js";
import { PUBLICATION_ACTIONS } from "../../../domain/publications.js";
import { isJsonObject } from "../body.js";
import { specWordOf } from "../enum-words.js";
import { graphql, type ResultOf } from "../graphql.js";
import { restRoute, type RestInput, type RestRoute } from "../route.js";
import { ApplyResult, ToolMiddlewareApplication, ToolMiddlewareChanges, ValidationResult } from "../views.js";
import { creationForGraphQL, toGrantView, GRANT_VIEW } from "./grants.js";
import { TOOL_RELEASE_FIELDS, toRestRelease } from "./releases.js";

const PLAN_ENTRY_FIELDS = graphql(`
  fragment PlanEntryFields on PublicationPlanEntry {
    action
    name
    version
    reason
  }
`);

/** A plan entry with the spec's action word (`NO_CHANGE` → `noChange`). */
const toRestPlanEntry = (entry: ResultOf<typeof PLAN_ENTRY_FIELDS>) => ({ ...entry, action: specWordOf(PUBLICATION_ACTIONS, entry.action) });

/** The body's grant creations with their selector types as GraphQL names them; anything else as sent. */
function changesForGraphQL(body: unknown): unknown {
  if (!isJsonObject(body) || !isJsonObject(body.grantReconciliation) || !Array.isArray(body.grantReconciliation.creations)) return body;
  const { grantReconciliation } = body;
  return { ...body, grantReconciliation: { ...grantReconciliation, creations: (grantReconciliation.creations as unknown[]).map(creationForGraphQL) } };
}

/** The body becomes the `$body` variable, so GraphQL's coercion errors read "at body.publications[0].name". */
function changesOf(input: RestInput<"/:environmentId">): { environmentId: string; body: unknown } {
  if (input.body === undefined) {
    throw invalidRequest(['body: required, e.g. {"grantReconciliation": {"creations": [], "deletions": []}, "publications": []}']);
  }
  return { environmentId: input.params.environmentId, body: changesForGraphQL(input.body) };
}

const CHANGES_EXAMPLE = {
  grantReconciliation: {
    creations: [{ release: { type: "ByCoordinates", account: "alice@demo.toolgate.dev", name: "json-format", version: "1.4.2" } }],
    deletions: [],
  },
  publications: [],
};

export const PUBLICATION_ROUTES: RestRoute[] = [
  restRoute({
    name: "validate tool middlewares",
    method: "POST",
    path: "/v1/envs/:environmentId/tool-middlewares/validate",
    contract: {
      tag: "Publications",
      summary: "Validate changes",
      description: "Checks publications and grant changes without changing anything and returns the publication plan.",
      body: { schema: ToolMiddlewareChanges, required: true, example: CHANGES_EXAMPLE },
      success: { status: 200, schema: ValidationResult },
      // A creation it checks can conflict (a mutable release in a versionCheck environment).
      refusals: [409, 422],
    },
    document: graphql(
      `
      query ValidateToolMiddlewares($environmentId: UUID!, $body: ToolMiddlewareChangesInput!) {
        validateToolMiddlewares(environmentId: $environmentId, input: $body) {
          publicationPlan { ...PlanEntryFields }
        }
      }
    `,
      [PLAN_ENTRY_FIELDS],
    ),
    variables: changesOf,
    respond: ({ validateToolMiddlewares: result }) => ({ publicationPlan: result.publicationPlan.map(toRestPlanEntry) }),
  }),
  restRoute({
    name: "apply tool middlewares",
    method: "POST",
    path: "/v1/envs/:environmentId/tool-middlewares/apply",
    contract: {
      tag: "Publications",
      summary: "Apply changes",
      description: "Publishes, then creates and deletes grants, in one transaction; answers what it did.",
      body: { schema: ToolMiddlewareApplication, required: true, example: CHANGES_EXAMPLE },
      success: { status: 200, schema: ApplyResult },
      refusals: [409, 422],
    },
    document: graphql(
      `
      mutation ApplyToolMiddlewares($environmentId: UUID!, $body: ToolMiddlewareChangesInput!) {
        applyToolMiddlewares(environmentId: $environmentId, input: $body) {
          publicationPlan { ...PlanEntryFields }
          releases { ...ToolReleaseFields }
          grants { ...GrantView }
          deletedGrantIds
        }
      }
    `,
      [PLAN_ENTRY_FIELDS, TOOL_RELEASE_FIELDS, GRANT_VIEW],
    ),
    variables: changesOf,
    respond: ({ applyToolMiddlewares: result }) => ({
      publicationPlan: result.publicationPlan.map(toRestPlanEntry),
      releases: result.releases.map(toRestRelease),
      grants: result.grants.map(toGrantView),
      deletedGrantIds: result.deletedGrantIds,
    }),
  }),
];
