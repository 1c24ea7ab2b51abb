// GraphiQL at /graphql: the starter document it opens with, and its page, rendered once per process
// on first use. The page has no inline script: its configuration is JSON that a script of our origin
// (graphiql-boot.ts) hands to GraphiQL, so the page's policy is every page's (security-headers.ts).
//
// Yoga's GraphiQL sends the chosen operation together with every fragment of the document, and a
// fragment that no operation of the request uses fails validation ("Fragment … is never used"). So
// the starter has one fragment, ReleaseSummary, and every operation uses it. The whole document must
// also stay valid and within the limits (hardening.test.ts); test/demo/graphiql-starter.test.ts runs
// every operation as GraphiQL sends it.
import { createHash } from "node:crypto";
import type { GraphiQLOptions } from "graphql-yoga";
import { GRAPHQL_LIMITS } from "../../graphql/armor.js";
import { FAVICON_PATH } from "./favicon.js";
import { graphiqlAssetUrl, MONACO_WORKER_LABELS, readGraphiQLManifest, type GraphiQLManifest } from "./graphiql-assets.js";
import { GRAPHIQL_CONFIGURATION_ID } from "./graphiql-boot.js";

const { maxDepth, maxAliases, maxDirectives, maxCost, maxTokens } = GRAPHQL_LIMITS;

/** The variables the starter's operations declare; one Variables tab serves them all. */
export interface StarterVariables {
  environmentId: string;
  releaseId: string;
  grantId: string;
  /** The e-mail of the release's owner, for BY_COORDINATES. */
  account: string;
  name: string;
  version: string;
}

export const GRAPHIQL_DEFAULT_QUERY = /* GraphQL */ `# Welcome to toolgate's GraphQL API.
#
# Authenticate with your API token in the Headers tab:  {"Authorization": "Bearer <token>"}
# Pick an operation with the run button. Every operation names its variables the same way, so
# one Variables tab serves them all (each operation ignores the ones it does not declare):
#   {"environmentId": "<uuid>", "releaseId": "<uuid>", "grantId": "<uuid>",
#    "account": "<owner e-mail>", "name": "<middleware name>", "version": "<version>"}
# In demo mode both tabs are pre-filled: alice's token and ids from the demo data.
# Arguments take an object's \`uuid\`; \`id\` is its Relay global id, for \`node(id:)\`.
# Every operation uses the one fragment, ReleaseSummary: GraphiQL sends the chosen operation with
# every fragment, and a fragment the operation does not use fails validation.
# Limits per operation: depth ${maxDepth}, ${maxAliases} aliases, ${maxDirectives} directives, cost ${maxCost};
# ${maxTokens} tokens per document. See docs/graphql-limits.md.

query Me {
  me {
    id
    uuid
    name
    email
    plan
    admin
    toolReleases(first: 20) {
      nodes {
        ...ReleaseSummary
      }
    }
  }
}

query EnvironmentWithGrants($environmentId: UUID!) {
  environment(id: $environmentId) {
    id
    uuid
    name
    versionCheck
    owner {
      uuid
      name
      email
    }
    grants(first: 20) {
      nodes {
        uuid
        lifecycle
        automatic
        followCoordinates
        release {
          ...ReleaseSummary
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
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
    definitionSummary {
      summary
      commands {
        path
        summary
      }
    }
    metadataDigest
    createdAt
  }
}

query Grant($grantId: UUID!) {
  grant(id: $grantId) {
    id
    uuid
    lifecycle
    automatic
    protected
    followCoordinates
    createdAt
    environment {
      uuid
      name
    }
    release {
      ...ReleaseSummary
    }
  }
}

mutation CreateGrantById($environmentId: UUID!, $releaseId: UUID!) {
  createGrant(environmentId: $environmentId, input: { release: { type: BY_ID, releaseId: $releaseId }, automatic: false }) {
    uuid
    lifecycle
    followCoordinates
    release {
      ...ReleaseSummary
    }
  }
}

mutation CreateGrantByCoordinates($environmentId: UUID!, $account: String!, $name: String!, $version: String!) {
  createGrant(
    environmentId: $environmentId
    input: { release: { type: BY_COORDINATES, account: $account, name: $name, version: $version } }
  ) {
    uuid
    lifecycle
    followCoordinates
    release {
      ...ReleaseSummary
    }
  }
}

mutation DeleteGrant($grantId: UUID!) {
  deleteGrant(id: $grantId, automatic: false) {
    uuid
    lifecycle
    stateChangedAt
    release {
      ...ReleaseSummary
    }
  }
}

mutation RestoreGrant($grantId: UUID!) {
  restoreGrant(id: $grantId) {
    uuid
    lifecycle
    automatic
    release {
      ...ReleaseSummary
    }
  }
}

mutation DepublishToolRelease($releaseId: UUID!) {
  depublishToolRelease(id: $releaseId) {
    ...ReleaseSummary
    stateChangedAt
  }
}

mutation RestoreToolRelease($releaseId: UUID!) {
  restoreToolRelease(id: $releaseId) {
    ...ReleaseSummary
    stateChangedAt
  }
}

fragment ReleaseSummary on ToolRelease {
  id
  uuid
  name
  version
  lifecycle
  owner {
    uuid
    name
    email
  }
}
`;

export interface GraphiQLPageOptions {
  /** Pre-filled in the Headers tab (demo mode: a demo account's, never the admin's). */
  token?: string | undefined;
  /** Pre-filled in the Variables tab (demo mode: ids from the demo data). */
  variables?: StarterVariables | undefined;
  /**
   * Names the registry the page belongs to (its database). GraphiQL keeps its tabs, headers and
   * variables in the browser under this scope, so a browser that knew another database (before a
   * reset, or the other provider) does not send that one's token or ids here.
   */
  storageScope?: string | undefined;
}

/**
 * The GraphiQL page, made on first use (it names the build's asset files, read from its manifest)
 * and then shared by every request. It is a few kilobytes: GraphiQL itself is files of its own
 * (graphiql-assets.ts), which browsers keep.
 */
export function lazyGraphiQLPage(options: GraphiQLPageOptions): () => Promise<string> {
  let page: Promise<string> | undefined;
  return () =>
    (page ??= readGraphiQLManifest().then(
      (manifest) => renderGraphiQLPage(manifest, options),
      (error: unknown) => {
        page = undefined;
        throw error;
      },
    ));
}

function renderGraphiQLPage(manifest: GraphiQLManifest, options: GraphiQLPageOptions): string {
  // Yoga's GraphiQL reads `variables` (the Variables tab) as it reads `headers`; its type omits it.
  const graphiqlOptions: GraphiQLOptions & { variables?: string | undefined } = {
    title: "toolgate",
    defaultQuery: GRAPHIQL_DEFAULT_QUERY,
    headers: options.token ? JSON.stringify({ Authorization: `Bearer ${options.token}` }) : undefined,
    variables: options.variables ? JSON.stringify(options.variables, null, 2) : undefined,
    shouldPersistHeaders: true,
  };
  const workers = Object.fromEntries(MONACO_WORKER_LABELS.map((label) => [label, graphiqlAssetUrl(manifest.workers[label])]));
  // A digest, not the id itself: the page is public.
  const storageScope = createHash("sha256")
    .update(options.storageScope ?? "")
    .digest("hex")
    .slice(0, 16);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolgate GraphiQL</title>
<link rel="icon" href="${FAVICON_PATH}">
<link rel="stylesheet" href="${graphiqlAssetUrl(manifest.stylesheet)}">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root"></div>
<script type="application/json" id="${GRAPHIQL_CONFIGURATION_ID}">${jsonInScript({ options: graphiqlOptions, workers, storageScope })}</script>
<script src="${graphiqlAssetUrl(manifest.boot)}"></script>
<script src="${graphiqlAssetUrl(manifest.script)}"></script>
</body>
</html>
`;
}

/** JSON that cannot end its <script> element early: `<` only ever appears escaped (`</script>` in a starter comment, say). */
const jsonInScript = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
