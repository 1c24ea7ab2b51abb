// GraphiQL's starter document runs as shipped. Yoga's GraphiQL sends the chosen operation with every
// fragment of the document (its fetcher drops the other operations), so each operation is sent that
// way: it validates, and in demo mode it runs with the page's pre-filled token and variables and
// answers no errors. Operations run in document order, as a visitor trying them top to bottom would.
import { Kind, parse, print, validate, type DocumentNode, type OperationDefinitionNode } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDemo } from "../../src/demo/load.js";
import { buildSchema } from "../../src/graphql/schema.js";
import { GRAPHIQL_DEFAULT_QUERY } from "../../src/http/pages/graphiql.js";
import { GRAPHIQL_CONFIGURATION_ID } from "../../src/http/pages/graphiql-boot.js";
import { client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

/** The request document Yoga's GraphiQL sends when `operationName` is chosen. */
function asGraphiQLSends(document: DocumentNode, operationName: string): string {
  const definitions = document.definitions.filter((definition) => definition.kind !== Kind.OPERATION_DEFINITION || definition.name?.value === operationName);
  return print({ ...document, definitions });
}

const operationNames = (document: DocumentNode) =>
  document.definitions
    .filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)
    .map((operation) => operation.name!.value);

interface PageOptions {
  defaultQuery: string;
  headers?: string;
  variables?: string;
}

/** The options the served page hands to GraphiQL: `options` of its JSON configuration (src/http/pages/graphiql-boot.ts). */
function graphiqlOptionsIn(page: string): PageOptions {
  const json = new RegExp(`<script type="application/json" id="${GRAPHIQL_CONFIGURATION_ID}">(.*?)</script>`, "s").exec(page)?.[1];
  expect(json, "the page carries GraphiQL's configuration").toBeDefined();
  return (JSON.parse(json!) as { options: PageOptions }).options;
}

const starter = parse(GRAPHIQL_DEFAULT_QUERY);

describe("GraphiQL starter document", () => {
  const schema = buildSchema();

  it("holds the everyday operations", () => {
    expect(operationNames(starter)).toEqual([
      "Me",
      "EnvironmentWithGrants",
      "ToolRelease",
      "Grant",
      "CreateGrantById",
      "CreateGrantByCoordinates",
      "DeleteGrant",
      "RestoreGrant",
      "DepublishToolRelease",
      "RestoreToolRelease",
    ]);
  });

  it.each(operationNames(starter))("%s validates as GraphiQL sends it (the operation with every fragment)", (operationName) => {
    expect(validate(schema, parse(asGraphiQLSends(starter, operationName))).map((error) => error.message)).toEqual([]);
  });
});

describeEachDatabase("GraphiQL starter document in demo mode", (provider) => {
  let service: TestService;
  let options: PageOptions;

  beforeAll(async () => {
    service = await startTestService(provider, { demo: true }, { afterBootstrap: loadDemo });
    const page = await client(service.url).request("GET", "/graphql", undefined, { accept: "text/html" });
    expect(page.status).toBe(200);
    options = graphiqlOptionsIn(page.text);
  });
  afterAll(() => service?.stopAndDrop());

  it("is the page's document, pre-filled with alice's token and ids from the demo data", async () => {
    expect(options.defaultQuery).toBe(GRAPHIQL_DEFAULT_QUERY);
    expect(JSON.parse(options.headers!)).toEqual({ Authorization: `Bearer ${service.demoTokens!.owner}` });
    const staging = await service.db.environment.findFirstOrThrow({ where: { name: "staging" } });
    expect(JSON.parse(options.variables!)).toMatchObject({ environmentId: staging.id, account: "alice@demo.toolgate.dev" });
  });

  it.each(operationNames(starter))("%s runs as shipped with the pre-filled variables, without errors", async (operationName) => {
    const { Authorization: authorization } = JSON.parse(options.headers!) as { Authorization: string };
    const result = await client(service.url).request(
      "POST",
      "/graphql",
      { query: asGraphiQLSends(starter, operationName), operationName, variables: JSON.parse(options.variables!) },
      { authorization, accept: "application/graphql-response+json" },
    );
    expect(result.body.errors, JSON.stringify(result.body.errors)).toBeUndefined();
    expect(result.status).toBe(200);
    expect(Object.values(result.body.data).every((value) => value !== null)).toBe(true);
  });
});
