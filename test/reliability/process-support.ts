// Shared pieces of the process-level reliability tests: an environment to publish into, over HTTP,
// and apply bodies whose publication and grant must land together or not at all.
import { randomUUID } from "node:crypto";
import { definitionFor } from "../fixtures/definitions/index.js";
import { client } from "../helpers/http.js";

export interface Registry {
  ownerId: string;
  ownerEmail: string;
  environmentId: string;
}

/**
 * A fresh account (unlimited plan) with an environment, created by the admin, who then publishes
 * into it. One owner each keeps concurrent applies from competing for the same rows.
 */
export async function prepareRegistry(url: string, adminToken: string): Promise<Registry> {
  const admin = client(url, adminToken);
  const tag = randomUUID().slice(0, 8);
  const account = await admin.graphql("mutation($input: CreateAccountInput!) { createAccount(input: $input) { uuid email } }", {
    input: { name: `owner-${tag}`, email: `owner-${tag}@example.test`, plan: "UNLIMITED" },
  });
  if (!account.body.data) throw new Error(`cannot create an account: ${account.text}`);
  const owner = account.body.data.createAccount;
  const environment = await admin.graphql("mutation($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { uuid } }", {
    input: { accountId: owner.uuid, name: `reliability-${tag}` },
  });
  if (!environment.body.data) throw new Error(`cannot create an environment: ${environment.text}`);
  return { ownerId: owner.uuid, ownerEmail: owner.email, environmentId: environment.body.data.createEnvironment.uuid };
}

/** One apply that publishes `name`@1.0.0 and grants it to the environment, in one transaction. */
export function publishAndGrant(registry: Registry, name: string, definition: unknown = definitionFor(name, "1.0.0")) {
  return {
    publications: [{ name, definition, source: { kind: "component", componentId: randomUUID(), componentRevision: 1, componentName: `${name}-component` } }],
    grantReconciliation: {
      creations: [{ release: { type: "ByCoordinates", account: registry.ownerEmail, name, version: "1.0.0" }, automatic: false }],
      deletions: [],
    },
  };
}

export const applyPath = (registry: Registry) => `/v1/envs/${registry.environmentId}/tool-middlewares/apply`;
export const validatePath = (registry: Registry) => `/v1/envs/${registry.environmentId}/tool-middlewares/validate`;
