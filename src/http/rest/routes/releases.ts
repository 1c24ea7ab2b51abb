// REST routes for tool releases (operations 7-10).
import { z } from "zod";
import { invalidRequest } from "../../../domain/errors.js";
import { RELEASE_LIFECYCLES, type ReleaseLifecycle } from "../../../domain/releases.js";
import { graphQLEnumName } from "../../../graphql/enum-names.js";
import { graphql, type ResultOf, type VariablesOf } from "../graphql.js";
import { specWordOf } from "../enum-words.js";
import { PAGE_PARAMETERS, PAGES_DESCRIPTION, pageBody, pageRequestOf, type PageRequest } from "../paging.js";
import { present, restRoute, type RestRoute } from "../route.js";
import { RELEASE_ORIGINS, SYSTEM_AVAILABILITIES, ToolRelease, ToolReleaseList, type RestToolRelease } from "../views.js";

/** Everything a tool release shows in REST, in GraphQL terms (`id` is the plain UUID). */
export const TOOL_RELEASE_FIELDS = graphql(`
  fragment ToolReleaseFields on ToolRelease {
    id: uuid
    ownerAccountId
    name
    version
    source { kind componentId componentRevision componentName }
    definition
    metadataVersion
    metadataDigest
    immutable
    lifecycle
    origin
    systemAvailability
    createdAt
    createdById
    stateChangedAt
    stateChangedById
  }
`);

/** The spec's tool release: lowercase enum words, createdBy/stateChangedBy as account UUIDs. */
export function toRestRelease(release: ResultOf<typeof TOOL_RELEASE_FIELDS>): RestToolRelease {
  return {
    id: release.id,
    ownerAccountId: release.ownerAccountId,
    name: release.name,
    version: release.version,
    source: release.source,
    // Stored definitions passed the structural check when they were published.
    definition: release.definition as RestToolRelease["definition"],
    metadataVersion: release.metadataVersion,
    metadataDigest: release.metadataDigest,
    immutable: release.immutable,
    lifecycle: specWordOf(RELEASE_LIFECYCLES, release.lifecycle),
    origin: specWordOf(RELEASE_ORIGINS, release.origin),
    systemAvailability: specWordOf(SYSTEM_AVAILABILITIES, release.systemAvailability),
    createdAt: release.createdAt,
    createdBy: release.createdById,
    stateChangedAt: release.stateChangedAt,
    stateChangedBy: release.stateChangedById,
  };
}

const LIST_TOOL_RELEASES = graphql(
  `
  query ListToolReleases($accountId: UUID!, $lifecycle: ReleaseLifecycle, $name: String, $limit: Int!, $cursor: String) {
    account(id: $accountId) {
      toolReleases(lifecycle: $lifecycle, name: $name, first: $limit, after: $cursor) {
        edges { node { ...ToolReleaseFields } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`,
  [TOOL_RELEASE_FIELDS],
);

type ListFilter = Pick<VariablesOf<typeof LIST_TOOL_RELEASES>, "lifecycle" | "name">;

/** `?lifecycle=published|de-published|superseded&name=<exact name>&limit=&cursor=`, all optional. */
function listRequest(query: URLSearchParams): ListFilter & PageRequest {
  const problems: string[] = [];
  const filter: ListFilter = {};
  const lifecycle = query.get("lifecycle");
  if (lifecycle !== null) {
    // graphQLEnumName is the rule the schema names ReleaseLifecycle's values by.
    if (RELEASE_LIFECYCLES.includes(lifecycle as ReleaseLifecycle)) filter.lifecycle = graphQLEnumName(lifecycle) as ListFilter["lifecycle"];
    else problems.push(`query.lifecycle: "${lifecycle}" is not one of ${RELEASE_LIFECYCLES.join(", ")}`);
  }
  const name = query.get("name");
  if (name !== null) {
    if (name === "") problems.push("query.name: must not be empty");
    else filter.name = name;
  }
  const page = pageRequestOf(query, problems);
  if (problems.length > 0) throw invalidRequest(problems);
  return { ...filter, ...page };
}

const releaseResponse = (release: ResultOf<typeof TOOL_RELEASE_FIELDS> | null, field: string) => toRestRelease(present(release, field));

export const RELEASE_ROUTES: RestRoute[] = [
  restRoute({
    name: "list tool releases of an account",
    method: "GET",
    path: "/v1/accounts/:accountId/tool-releases",
    contract: {
      tag: "Tool releases",
      summary: "List tool releases of an account",
      description: `The account's releases in every lifecycle unless filtered, ${PAGES_DESCRIPTION}`,
      query: {
        lifecycle: { schema: z.enum(RELEASE_LIFECYCLES), description: "Only releases in this lifecycle." },
        name: { schema: z.string().min(1), description: "Only releases of this exact name." },
        ...PAGE_PARAMETERS,
      },
      success: { status: 200, schema: ToolReleaseList },
    },
    document: LIST_TOOL_RELEASES,
    variables: (input) => ({ accountId: input.params.accountId, ...listRequest(input.query) }),
    argumentLocations: { after: "query.cursor" },
    respond: (data) => pageBody(data.account.toolReleases, toRestRelease),
  }),
  restRoute({
    name: "get a tool release",
    method: "GET",
    path: "/v1/tool-releases/:releaseId",
    contract: { tag: "Tool releases", summary: "Get a tool release", success: { status: 200, schema: ToolRelease } },
    document: graphql(
      `
      query GetToolRelease($releaseId: UUID!) {
        toolRelease(id: $releaseId) { ...ToolReleaseFields }
      }
    `,
      [TOOL_RELEASE_FIELDS],
    ),
    variables: (input) => ({ releaseId: input.params.releaseId }),
    respond: (data) => releaseResponse(data.toolRelease, "toolRelease"),
  }),
  restRoute({
    name: "de-publish a tool release",
    method: "DELETE",
    path: "/v1/tool-releases/:releaseId",
    contract: { tag: "Tool releases", summary: "De-publish a tool release", success: { status: 200, schema: ToolRelease }, refusals: [409] },
    document: graphql(
      `
      mutation DepublishToolRelease($releaseId: UUID!) {
        depublishToolRelease(id: $releaseId) { ...ToolReleaseFields }
      }
    `,
      [TOOL_RELEASE_FIELDS],
    ),
    variables: (input) => ({ releaseId: input.params.releaseId }),
    respond: (data) => releaseResponse(data.depublishToolRelease, "depublishToolRelease"),
  }),
  restRoute({
    name: "restore a tool release",
    method: "POST",
    path: "/v1/tool-releases/:releaseId/restore",
    contract: { tag: "Tool releases", summary: "Restore a de-published tool release", success: { status: 200, schema: ToolRelease }, refusals: [409, 422] },
    document: graphql(
      `
      mutation RestoreToolRelease($releaseId: UUID!) {
        restoreToolRelease(id: $releaseId) { ...ToolReleaseFields }
      }
    `,
      [TOOL_RELEASE_FIELDS],
    ),
    variables: (input) => ({ releaseId: input.params.releaseId }),
    respond: (data) => releaseResponse(data.restoreToolRelease, "restoreToolRelease"),
  }),
];
