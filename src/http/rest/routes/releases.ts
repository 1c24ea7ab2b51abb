// REST routes for tool releases (service.md 4.2, operations 7-10).
import { invalidRequest } from "../../../domain/errors.js";
import { RELEASE_LIFECYCLES, type ReleaseLifecycle } from "../../../domain/releases.js";
import { graphQLEnumName } from "../../../graphql/enum-names.js";
import { restEnumValue, type RestInput, type RestRoute } from "../route.js";

/** Everything a tool release shows in REST (service.md 2.4), in GraphQL terms (`id` is the plain UUID). */
export const TOOL_RELEASE_FIELDS = /* GraphQL */ `
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
`;

export interface ToolReleaseFields {
  id: string;
  ownerAccountId: string;
  name: string;
  version: string;
  source: { kind: string; componentId: string; componentRevision: number; componentName: string };
  definition: unknown;
  metadataVersion: string;
  metadataDigest: string;
  immutable: boolean;
  lifecycle: string;
  origin: string;
  systemAvailability: string;
  createdAt: string;
  createdById: string;
  stateChangedAt: string;
  stateChangedById: string;
}

/** The spec's tool release: lowercase enum words, createdBy/stateChangedBy as account UUIDs. */
export function toRestRelease(release: ToolReleaseFields) {
  return {
    id: release.id,
    ownerAccountId: release.ownerAccountId,
    name: release.name,
    version: release.version,
    source: release.source,
    definition: release.definition,
    metadataVersion: release.metadataVersion,
    metadataDigest: release.metadataDigest,
    immutable: release.immutable,
    lifecycle: restEnumValue(release.lifecycle),
    origin: restEnumValue(release.origin),
    systemAvailability: restEnumValue(release.systemAvailability),
    createdAt: release.createdAt,
    createdBy: release.createdById,
    stateChangedAt: release.stateChangedAt,
    stateChangedBy: release.stateChangedById,
  };
}

/** `?lifecycle=published|de-published|superseded&name=<exact name>`, both optional. */
function listFilter(query: URLSearchParams): { lifecycle?: string; name?: string } {
  const problems: string[] = [];
  const filter: { lifecycle?: string; name?: string } = {};
  const lifecycle = query.get("lifecycle");
  if (lifecycle !== null) {
    if (RELEASE_LIFECYCLES.includes(lifecycle as ReleaseLifecycle)) filter.lifecycle = graphQLEnumName(lifecycle);
    else problems.push(`query.lifecycle: "${lifecycle}" is not one of ${RELEASE_LIFECYCLES.join(", ")}`);
  }
  const name = query.get("name");
  if (name !== null) {
    if (name === "") problems.push("query.name: must not be empty");
    else filter.name = name;
  }
  if (problems.length > 0) throw invalidRequest(problems);
  return filter;
}

const releaseIdOf = (input: RestInput) => ({ releaseId: input.params.releaseId });

function releaseResponse(field: string) {
  return (data: Record<string, unknown>) => ({ status: 200, body: toRestRelease(data[field] as ToolReleaseFields) });
}

export const RELEASE_ROUTES: RestRoute[] = [
  {
    name: "list tool releases of an account",
    method: "GET",
    path: "/v1/accounts/:accountId/tool-releases",
    document: /* GraphQL */ `
      query ListToolReleases($accountId: UUID!, $lifecycle: ReleaseLifecycle, $name: String) {
        account(id: $accountId) {
          toolReleaseList(lifecycle: $lifecycle, name: $name) { ...ToolReleaseFields }
        }
      }
      ${TOOL_RELEASE_FIELDS}
    `,
    variables: (input) => ({ accountId: input.params.accountId, ...listFilter(input.query) }),
    respond: (data) => {
      const account = data.account as { toolReleaseList: ToolReleaseFields[] };
      return { status: 200, body: { values: account.toolReleaseList.map(toRestRelease) } };
    },
  },
  {
    name: "get a tool release",
    method: "GET",
    path: "/v1/tool-releases/:releaseId",
    document: /* GraphQL */ `
      query GetToolRelease($releaseId: UUID!) {
        toolRelease(id: $releaseId) { ...ToolReleaseFields }
      }
      ${TOOL_RELEASE_FIELDS}
    `,
    variables: releaseIdOf,
    respond: releaseResponse("toolRelease"),
  },
  {
    name: "de-publish a tool release",
    method: "DELETE",
    path: "/v1/tool-releases/:releaseId",
    document: /* GraphQL */ `
      mutation DepublishToolRelease($releaseId: UUID!) {
        depublishToolRelease(id: $releaseId) { ...ToolReleaseFields }
      }
      ${TOOL_RELEASE_FIELDS}
    `,
    variables: releaseIdOf,
    respond: releaseResponse("depublishToolRelease"),
  },
  {
    name: "restore a tool release",
    method: "POST",
    path: "/v1/tool-releases/:releaseId/restore",
    document: /* GraphQL */ `
      mutation RestoreToolRelease($releaseId: UUID!) {
        restoreToolRelease(id: $releaseId) { ...ToolReleaseFields }
      }
      ${TOOL_RELEASE_FIELDS}
    `,
    variables: releaseIdOf,
    respond: releaseResponse("restoreToolRelease"),
  },
];
