// REST routes for grants (operations 1, 2, 4, 5, 6). Operation 3 (validate) lives
// with the validate/apply routes.
import { invalidRequest } from "../../../domain/errors.js";
import { RELEASE_SELECTOR_TYPES } from "../../../domain/grant-release-selector.js";
import { isJsonObject } from "../body.js";
import { graphQLNameOf, specWordOf } from "../enum-words.js";
import { graphql, type ResultOf } from "../graphql.js";
import { PAGE_PARAMETERS, PAGES_DESCRIPTION, pageBody, pageRequestOf, type PageRequest } from "../paging.js";
import { present, restRoute, type RestInput, type RestRoute } from "../route.js";
import { GRANT_LIFECYCLES, GrantCreation, GrantDeletion, GrantList, GrantView, type RestGrantView } from "../views.js";

/** Everything a grant view needs, aliased to the spec's field names (`id` is the plain UUID). */
export const GRANT_VIEW = graphql(`
  fragment GrantView on Grant {
    id: uuid
    environmentId
    toolMiddlewareReleaseId: releaseId
    protected
    automatic
    followCoordinates
    lifecycle
    createdAt
    createdBy: createdById
    stateChangedAt
    stateChangedBy: stateChangedById
    release {
      id: uuid
      name
      version
      definition: middlewareDefinition
      metadataVersion
      metadataDigest
      sourceDigest
      owner {
        id: uuid
        name
        email
      }
    }
  }
`);

// Written out rather than destructured with `...rest`: graphql-js answers objects without a
// prototype, in V8's dictionary mode, whose rest it copies key by key through a generic path
// (~8 µs a view against ~0.3, measured; a list makes 50).
export function toGrantView(node: ResultOf<typeof GRANT_VIEW>): RestGrantView {
  const { release } = node;
  return {
    grant: {
      id: node.id,
      environmentId: node.environmentId,
      toolMiddlewareReleaseId: node.toolMiddlewareReleaseId,
      protected: node.protected,
      automatic: node.automatic,
      followCoordinates: node.followCoordinates,
      lifecycle: specWordOf(GRANT_LIFECYCLES, node.lifecycle),
      createdAt: node.createdAt,
      createdBy: node.createdBy,
      stateChangedAt: node.stateChangedAt,
      stateChangedBy: node.stateChangedBy,
    },
    release: {
      id: release.id,
      name: release.name,
      version: release.version,
      // Stored definitions passed the structural check when they were published.
      definition: release.definition as RestGrantView["release"]["definition"],
      metadataVersion: release.metadataVersion,
      metadataDigest: release.metadataDigest,
      sourceDigest: release.sourceDigest,
    },
    releaseOwner: release.owner,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Throws the problems found before GraphQL runs, with any bad path parameter, so one response lists every problem. */
function rejectRequest(problems: string[], params: Record<string, string>, name: string): never {
  const value = params[name] ?? "";
  if (!UUID.test(value)) problems.unshift(`path.${name}: "${value}" is not a UUID`);
  throw invalidRequest(problems);
}

/** `?limit=&cursor=`, with any bad path parameter, so one response lists every problem. */
function pageOf({ query, params }: RestInput<"/:environmentId">): PageRequest {
  const problems: string[] = [];
  const page = pageRequestOf(query, problems);
  if (problems.length > 0) rejectRequest(problems, params, "environmentId");
  return page;
}

/**
 * A grant creation of a REST body with its selector's `type` as GraphQL names it (`ById` → `BY_ID`).
 * Any other shape or word is passed on as it is, for GraphQL's coercion to report.
 */
export function creationForGraphQL(creation: unknown): unknown {
  if (!isJsonObject(creation) || !isJsonObject(creation.release) || !("type" in creation.release)) return creation;
  return { ...creation, release: { ...creation.release, type: graphQLNameOf(RELEASE_SELECTOR_TYPES, creation.release.type) } };
}

/** POST's body becomes the `$body` variable, so GraphQL's coercion errors read "at body.release.type". */
function creationOf(input: RestInput): { body: unknown } {
  if (input.body === undefined) {
    rejectRequest(['body: required, e.g. {"release": {"type": "ById", "releaseId": "<uuid>"}, "automatic": false}'], input.params, "environmentId");
  }
  return { body: creationForGraphQL(input.body) };
}

/** DELETE's optional body is `{automatic: boolean}`; it is checked here because it has no GraphQL input type. */
function deletionOf(input: RestInput): { automatic: boolean } {
  const body = input.body;
  if (body === undefined) return { automatic: false };
  const problems: string[] = [];
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    problems.push('body: expected an object such as {"automatic": false}');
  } else {
    for (const key of Object.keys(body)) if (key !== "automatic") problems.push(`body.${key}: unknown field; the only field is automatic`);
    const automatic = (body as { automatic?: unknown }).automatic;
    if (automatic !== undefined && automatic !== null && typeof automatic !== "boolean") problems.push("body.automatic: expected a boolean");
  }
  if (problems.length > 0) rejectRequest(problems, input.params, "grantId");
  return { automatic: (body as { automatic?: boolean | null }).automatic ?? false };
}

export const GRANT_ROUTES: RestRoute[] = [
  restRoute({
    name: "list active grants",
    method: "GET",
    path: "/v1/envs/:environmentId/tool-middlewares",
    contract: {
      tag: "Grants",
      summary: "List active grants",
      description: `Active grants of the environment whose releases are published or superseded, ${PAGES_DESCRIPTION}`,
      query: PAGE_PARAMETERS,
      success: { status: 200, schema: GrantList },
    },
    document: graphql(
      `
      query ListActiveGrants($environmentId: UUID!, $limit: Int!, $cursor: String) {
        environment(id: $environmentId) {
          grants(first: $limit, after: $cursor) {
            edges {
              node {
                ...GrantView
              }
            }
            pageInfo {
              hasNextPage
              endCursor
            }
          }
        }
      }
    `,
      [GRANT_VIEW],
    ),
    variables: (input) => ({ environmentId: input.params.environmentId, ...pageOf(input) }),
    argumentLocations: { after: "query.cursor" },
    respond: ({ environment }) => pageBody(environment.grants, toGrantView),
  }),
  restRoute({
    name: "create grant",
    method: "POST",
    path: "/v1/envs/:environmentId/tool-middlewares",
    contract: {
      tag: "Grants",
      summary: "Grant a release",
      description: "Grants an exact release to the environment; creating the same grant again answers the existing one.",
      body: {
        schema: GrantCreation,
        required: true,
        example: { release: { type: "ById", releaseId: "01a201cd-ac31-728b-b411-4c2a3ab92a61" }, automatic: false },
      },
      success: { status: 200, schema: GrantView },
      refusals: [409, 422],
    },
    document: graphql(
      `
      mutation CreateGrant($environmentId: UUID!, $body: CreateGrantInput!) {
        createGrant(environmentId: $environmentId, input: $body) {
          ...GrantView
        }
      }
    `,
      [GRANT_VIEW],
    ),
    variables: (input) => ({ environmentId: input.params.environmentId, ...creationOf(input) }),
    respond: (data) => toGrantView(present(data.createGrant, "createGrant")),
  }),
  restRoute({
    name: "get active grant",
    method: "GET",
    path: "/v1/environment-tool-middleware-grants/:grantId",
    contract: { tag: "Grants", summary: "Get an active grant", success: { status: 200, schema: GrantView } },
    document: graphql(
      `
      query GetGrant($grantId: UUID!) {
        grant(id: $grantId) {
          ...GrantView
        }
      }
    `,
      [GRANT_VIEW],
    ),
    variables: ({ params }) => ({ grantId: params.grantId }),
    respond: (data) => toGrantView(present(data.grant, "grant")),
  }),
  restRoute({
    name: "delete grant",
    method: "DELETE",
    path: "/v1/environment-tool-middleware-grants/:grantId",
    contract: {
      tag: "Grants",
      summary: "Delete a grant",
      body: { schema: GrantDeletion, required: false, example: { automatic: false } },
      success: { status: 204 },
      refusals: [409],
    },
    document: graphql(`
      mutation DeleteGrant($grantId: UUID!, $automatic: Boolean) {
        deleteGrant(id: $grantId, automatic: $automatic) {
          uuid
        }
      }
    `),
    variables: (input) => ({ grantId: input.params.grantId, ...deletionOf(input) }),
    respond: () => undefined,
  }),
  restRoute({
    name: "restore grant",
    method: "POST",
    path: "/v1/environment-tool-middleware-grants/:grantId/restore",
    contract: { tag: "Grants", summary: "Restore a deleted grant", success: { status: 200, schema: GrantView }, refusals: [409, 422] },
    document: graphql(
      `
      mutation RestoreGrant($grantId: UUID!) {
        restoreGrant(id: $grantId) {
          ...GrantView
        }
      }
    `,
      [GRANT_VIEW],
    ),
    variables: ({ params }) => ({ grantId: params.grantId }),
    respond: (data) => toGrantView(present(data.restoreGrant, "restoreGrant")),
  }),
];
