// docs/graphql.md shows the client setups these suites run: each code block whose info string names
// a file of test/clients (```ts test/clients/…) is that file, whole.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const PROJECT_ROOT = new URL("../..", import.meta.url);
const DOCS = readFileSync(new URL("docs/graphql.md", PROJECT_ROOT), "utf8");

const quotes = [...DOCS.matchAll(/^```\w+ (test\/clients\/\S+)\n([\s\S]*?)^```$/gm)].map((match) => ({ path: match[1]!, text: match[2]! }));

// The files a reader needs to set each client up as the suites do.
const SETUPS = [
  "test/clients/relay/relay.config.json",
  "test/clients/relay/relay-environment.ts",
  "test/clients/relay/environment-grants.ts",
  "test/clients/relay/grant-details.ts",
  "test/clients/apollo/apollo-client.ts",
  "test/clients/documents.ts",
  "test/clients/urql/urql-client.ts",
];

describe("docs/graphql.md client setups", () => {
  it("quote the setup of Relay, Apollo Client and urql", () => {
    expect(quotes.map((quote) => quote.path).sort()).toEqual([...SETUPS].sort());
  });

  it.each(quotes.map((quote) => [quote.path, quote] as const))("quote %s as it is", (_path, quote) => {
    expect(quote.text).toBe(readFileSync(new URL(quote.path, PROJECT_ROOT), "utf8"));
  });
});
