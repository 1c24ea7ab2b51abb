// Keeps docs/graphql.md honest: every ```graphql block parses, validates against the schema and
// runs against a real server, in page order, with the outcome the page promises. Every field of
// Query and Mutation must have an example.
import { readFileSync } from "node:fs";
import { Kind, parse, validate, type OperationDefinitionNode } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "../../src/domain/accounts.js";
import { deliveryOf } from "../../src/domain/webhook-deliveries.js";
import { createWebhook } from "../../src/domain/webhooks.js";
import { webhookUrlPolicy } from "../../src/webhooks/url-policy.js";
import { buildSchema } from "../../src/graphql/schema.js";
import type { Client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";
import { definitionFor } from "../fixtures/definitions/index.js";
import { globalId, grant, uniqueName } from "./support.js";

const DOCS = new URL("../../docs/graphql.md", import.meta.url);
const AS_ADMINISTRATOR = /^# As an administrator/;
const FAILS_WITH = /^# Fails with ([A-Z_]+)/;
const AS_OFFERED_ACCOUNT = /^# As the account the share was offered to/;

interface Example {
  source: string;
  operation: OperationDefinitionNode;
  name: string;
}

function examplesOf(markdown: string): Example[] {
  return [...markdown.matchAll(/^```graphql\n([\s\S]*?)^```$/gm)].map((match, index) => {
    const source = match[1]!;
    const operations = parse(source).definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
    expect(operations, `example ${index + 1} must hold exactly one operation`).toHaveLength(1);
    const operation = operations[0] as OperationDefinitionNode;
    return { source, operation, name: operation.name?.value ?? `example ${index + 1}` };
  });
}

const schema = buildSchema();
const examples = examplesOf(readFileSync(DOCS, "utf8"));

describe("docs/graphql.md examples", () => {
  it.each(examples.map((example) => [example.name, example] as const))("%s parses and validates against the schema", (_name, example) => {
    expect(validate(schema, parse(example.source)).map((error) => error.message)).toEqual([]);
  });

  it("cover every field of Query and Mutation", () => {
    const exemplified = new Set(
      examples.flatMap((example) =>
        example.operation.selectionSet.selections.flatMap((selection) => (selection.kind === Kind.FIELD ? [selection.name.value] : [])),
      ),
    );
    const rootFields = [schema.getQueryType()!, schema.getMutationType()!].flatMap((type) => Object.keys(type.getFields()));
    expect(rootFields.filter((field) => !exemplified.has(field))).toEqual([]);
  });
});

describeEachDatabase("docs/graphql.md examples against a running server", (provider) => {
  let service: TestService;
  let world: World;
  let variables: Record<string, unknown>;
  /** An account the owner offered a share of world.environment. */
  let offered: Client;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    const granted = await grant(world, world.environment, await world.publish(world.owner, uniqueName("granted"), "1.0.0"));
    const byCoordinates = await world.publish(world.owner, uniqueName("by-coordinates"), "2.0.0");
    const { token } = await issueToken(service.db, "system", { accountId: world.owner.account.id, name: "to revoke" });
    const strangersEnvironment = await world.environmentOf(world.stranger);
    const published = uniqueName("published");
    const offeredMember = await world.member();
    offered = offeredMember.http;
    await world.owner.http.graphql(`mutation($input: ShareEnvironmentInput!) { shareEnvironment(input: $input) { role } }`, {
      input: { environmentId: world.environment.id, accountId: offeredMember.account.id, role: "VIEWER" },
    });
    // A webhook, and one delivery of its first event, for the webhook examples.
    const { webhook } = await createWebhook(service.db, world.owner.account, webhookUrlPolicy([]), {
      scope: { environmentId: world.environment.id },
      url: "https://hooks.example.com/docs",
    });
    const firstEvent = await service.db.changeEvent.findFirstOrThrow({ where: { environmentId: world.environment.id, id: { gt: webhook.cursor ?? "" } } });
    const delivery = await deliveryOf(service.db, webhook.id, firstEvent.id);
    variables = {
      webhookId: webhook.id,
      deliveryId: delivery!.id,
      accountId: world.owner.account.id,
      environmentId: world.environment.id,
      releaseId: (await world.publish(world.owner, uniqueName("to-grant"), "1.0.0")).id,
      grantId: granted.id,
      tokenId: token.id,
      memberId: (await world.member()).account.id,
      globalId: globalId("Environment", world.environment.id),
      globalIds: [globalId("Environment", world.environment.id), globalId("Grant", granted.id), globalId("Environment", strangersEnvironment.id)],
      account: world.owner.account.email,
      name: byCoordinates.name,
      version: byCoordinates.version,
      changes: {
        publications: [
          {
            name: published,
            definition: definitionFor(published, "1.5.0"),
            source: { kind: "component", componentId: "0190f0a8-6c1e-7c3a-9d2b-1f4e5a6b7c8d", componentRevision: 9, componentName: published },
          },
        ],
        grantReconciliation: {
          creations: [{ release: { type: "BY_COORDINATES", account: world.owner.account.email, name: published, version: "1.5.0" }, automatic: false }],
          deletions: [],
        },
      },
    };
  });
  afterAll(() => service?.stopAndDrop());

  /** The values of the variables the operation declares; a required one without a value fails the test. */
  function variablesFor(operation: OperationDefinitionNode): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const definition of operation.variableDefinitions ?? []) {
      const name = definition.variable.name.value;
      if (name in variables) values[name] = variables[name];
      else expect(definition.type.kind, `give $${name} a value in docs-examples.test.ts`).not.toBe(Kind.NON_NULL_TYPE);
    }
    return values;
  }

  it.each(examples.map((example) => [example.name, example] as const))("%s runs with the outcome the page describes", async (_name, example) => {
    const asker: Client = AS_ADMINISTRATOR.test(example.source) ? world.admin : AS_OFFERED_ACCOUNT.test(example.source) ? offered : world.owner.http;
    const result = await asker.graphql(example.source, variablesFor(example.operation));
    const expectedFailure = FAILS_WITH.exec(example.source)?.[1];
    if (expectedFailure) {
      expect(result.body.errors?.map((error) => error.extensions?.code)).toEqual([expectedFailure]);
    } else {
      expect(result.body.errors, JSON.stringify(result.body.errors)).toBeUndefined();
      expect(result.status).toBe(200);
    }
  });
});
