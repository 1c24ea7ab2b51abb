// GraphiQL at /graphql: the starter document it opens with, and its page, rendered once per process
// on first use.
//
// Yoga's GraphiQL sends the chosen operation together with every fragment of the document, and a
// fragment that no operation of the request uses fails validation ("Fragment … is never used"). So
// the starter has one fragment, ReleaseSummary, and every operation uses it. The whole document must
// also stay valid and within the limits (hardening.test.ts); test/demo/graphiql-starter.test.ts runs
// every operation as GraphiQL sends it.
import { createHash } from "node:crypto";
import { pageContentSecurityPolicy } from "./security-headers.js";
import type { GraphiQLOptions } from "graphql-yoga";
import { GRAPHQL_LIMITS } from "../graphql/armor.js";

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
    toolReleaseList {
      ...ReleaseSummary
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
}

export interface GraphiQLPage {
  html: string;
  contentSecurityPolicy: string;
}

/**
 * The GraphiQL page and its policy, made on first use and then shared by every request. The page is
 * 9 MB (its assets are inline, so it works on closed networks) and so is the module that renders it:
 * loading it, rendering and hashing the page took ~0.4 s of every start-up, for a page most servers
 * never show (docs/performance.md).
 */
export function lazyGraphiQLPage(options: GraphiQLPageOptions): () => Promise<GraphiQLPage> {
  let page: Promise<GraphiQLPage> | undefined;
  return () =>
    (page ??= import("@graphql-yoga/render-graphiql").then(({ renderGraphiQL }) => {
      const html = renderGraphiQLPage(renderGraphiQL, options);
      return { html, contentSecurityPolicy: graphiqlContentSecurityPolicy(html) };
    }));
}

function renderGraphiQLPage(renderGraphiQL: (options: GraphiQLOptions) => string, options: GraphiQLPageOptions): string {
  // Yoga's GraphiQL reads `variables` (the Variables tab) as it reads `headers`; its type omits it.
  const graphiqlOptions: GraphiQLOptions & { variables?: string | undefined } = {
    title: "toolgate",
    defaultQuery: GRAPHIQL_DEFAULT_QUERY,
    headers: options.token ? JSON.stringify({ Authorization: `Bearer ${options.token}` }) : undefined,
    variables: options.variables ? JSON.stringify(options.variables, null, 2) : undefined,
    shouldPersistHeaders: true,
  };
  return renderGraphiQL(graphiqlOptions);
}

/**
 * The page's Content-Security-Policy: its one inline script allowed by hash rather than by
 * 'unsafe-inline' (the page is fixed, so the hash is computed once); its editors' workers are
 * blob: URLs, its icons and fonts data: URLs, and it talks to our own origin only.
 */
function graphiqlContentSecurityPolicy(page: string): string {
  const scriptHashes = [...page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    // Browsers hash the script's text as parsed, and HTML parsing turns CR LF and lone CR into LF.
    ([, text]) => `'sha256-${createHash("sha256").update(text!.replace(/\r\n?/g, "\n")).digest("base64")}'`,
  );
  return pageContentSecurityPolicy(scriptHashes);
}
