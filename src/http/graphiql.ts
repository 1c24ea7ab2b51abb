// The document GraphiQL opens with: one named operation per everyday task, ready to pick and run.
// It is sent whole with every run, so it must stay valid and within the limits (hardening.test.ts).
import { GRAPHQL_LIMITS } from "../graphql/armor.js";

const { maxDepth, maxAliases, maxDirectives, maxCost, maxTokens } = GRAPHQL_LIMITS;

export const GRAPHIQL_DEFAULT_QUERY = /* GraphQL */ `# Welcome to toolgate's GraphQL API.
#
# Authenticate with your API token in the Headers tab:  {"Authorization": "Bearer <token>"}
# Pick an operation with the run button. Every operation names its variables the same way, so
# one Variables tab serves them all (each operation ignores the ones it does not declare):
#   {"environmentId": "<uuid>", "releaseId": "<uuid>", "grantId": "<uuid>",
#    "account": "<owner e-mail>", "name": "<middleware name>", "version": "<version>"}
# Limits per operation: depth ${maxDepth}, ${maxAliases} aliases, ${maxDirectives} directives, cost ${maxCost};
# ${maxTokens} tokens per document. See docs/graphql-limits.md.

query Me {
  me {
    id
    name
    email
    plan
    admin
    toolReleaseList {
      ...ReleaseSummary
    }
  }
}

query EnvironmentWithGrants($environmentId: UUID!) {
  environment(id: $environmentId) {
    id
    name
    versionCheck
    owner {
      id
      name
      email
    }
    activeGrants {
      ...GrantSummary
    }
  }
}

query ToolRelease($releaseId: UUID!) {
  toolRelease(id: $releaseId) {
    ...ReleaseSummary
    immutable
    origin
    systemAvailability
    source {
      kind
      componentName
      componentRevision
    }
    definition
    metadataDigest
    createdAt
  }
}

query Grant($grantId: UUID!) {
  grant(id: $grantId) {
    ...GrantSummary
    environment {
      id
      name
    }
  }
}

mutation CreateGrantById($environmentId: UUID!, $releaseId: UUID!) {
  createGrant(environmentId: $environmentId, input: { release: { type: BY_ID, releaseId: $releaseId }, automatic: false }) {
    ...GrantSummary
  }
}

mutation CreateGrantByCoordinates($environmentId: UUID!, $account: String!, $name: String!, $version: String!) {
  createGrant(
    environmentId: $environmentId
    input: { release: { type: BY_COORDINATES, account: $account, name: $name, version: $version } }
  ) {
    ...GrantSummary
  }
}

mutation DeleteGrant($grantId: UUID!) {
  deleteGrant(id: $grantId, automatic: false) {
    id
    lifecycle
    stateChangedAt
  }
}

mutation RestoreGrant($grantId: UUID!) {
  restoreGrant(id: $grantId) {
    ...GrantSummary
  }
}

mutation DepublishToolRelease($releaseId: UUID!) {
  depublishToolRelease(id: $releaseId) {
    id
    lifecycle
    stateChangedAt
  }
}

mutation RestoreToolRelease($releaseId: UUID!) {
  restoreToolRelease(id: $releaseId) {
    id
    lifecycle
    stateChangedAt
  }
}

fragment ReleaseSummary on ToolRelease {
  id
  name
  version
  lifecycle
  owner {
    id
    name
    email
  }
}

fragment GrantSummary on Grant {
  id
  lifecycle
  automatic
  protected
  followCoordinates
  createdAt
  release {
    ...ReleaseSummary
  }
}
`;
