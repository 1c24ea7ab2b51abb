// The demo data set `serve --demo` and `seed --demo` load into an empty registry: two accounts,
// two environments (one shared as deployer), realistic releases and a few grants.
import type { Database } from "../db/client.js";
import { createAccount, issueToken } from "../domain/accounts.js";
import { createEnvironment, shareEnvironment } from "../domain/environments.js";
import type { MiddlewareDefinition } from "../domain/definitions/index.js";
import { applyChanges } from "../domain/publications.js";
import { gitLite } from "./definitions/git-lite.js";
import { jsonFormat } from "./definitions/json-format.js";

export const DEMO_OWNER_EMAIL = "alice@demo.toolgate.dev";
export const DEMO_DEPLOYER_EMAIL = "bob@demo.toolgate.dev";

export interface DemoTokens {
  owner: string;
  deployer: string;
}

export interface DemoSeed {
  seeded: boolean;
  tokens?: DemoTokens;
}

const DEMO_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

const COMPONENTS = {
  jsonFormat: { componentId: "0190f0a8-6c1e-7c3a-9d2b-1f4e5a6b7c8d", componentName: "json-format" },
  gitLite: { componentId: "0190f0a8-6c1e-7c3a-9d2b-2a5b6c7d8e9f", componentName: "git-lite" },
};

function publication(definition: MiddlewareDefinition, component: { componentId: string; componentName: string }, componentRevision: number) {
  return { name: definition.name, definition, source: { kind: "component", ...component, componentRevision } };
}

/**
 * Seeds only a registry with no accounts besides administrators, so restarts never duplicate it;
 * on any other registry it changes nothing. Returns day-long tokens for the demo accounts it made.
 */
export async function seedDemo(db: Database): Promise<DemoSeed> {
  if ((await db.account.count({ where: { admin: false } })) > 0) return { seeded: false };
  const alice = await createAccount(db, "system", { name: "Alice (platform team)", email: DEMO_OWNER_EMAIL, plan: "team" });
  const bob = await createAccount(db, "system", { name: "Bob (deployer)", email: DEMO_DEPLOYER_EMAIL, plan: "free" });
  const staging = await createEnvironment(db, "system", { accountId: alice.id, name: "staging" });
  const production = await createEnvironment(db, "system", { accountId: alice.id, name: "production", versionCheck: true });
  await shareEnvironment(db, "system", { environmentId: production.id, accountId: bob.id, role: "deployer" });
  await shareEnvironment(db, "system", { environmentId: staging.id, accountId: bob.id, role: "viewer" });

  // Published the way users publish: validate-and-apply bodies, releases and grants in one go each.
  const byCoordinates = (name: string, version: string, automatic: boolean) => ({
    release: { type: "ByCoordinates" as const, account: DEMO_OWNER_EMAIL, name, version },
    automatic,
  });
  // One body publishes each name at most once, so the older json-format goes first on its own.
  await applyChanges(db, alice, production.id, {
    publications: [publication(jsonFormat("1.4.1"), COMPONENTS.jsonFormat, 7)],
    grantReconciliation: { creations: [], deletions: [] },
  });
  await applyChanges(db, alice, production.id, {
    publications: [publication(jsonFormat("1.4.2"), COMPONENTS.jsonFormat, 8), publication(gitLite("git-lite", "2.43.0"), COMPONENTS.gitLite, 3)],
    grantReconciliation: { creations: [byCoordinates("json-format", "1.4.2", false), byCoordinates("git-lite", "2.43.0", true)], deletions: [] },
  });
  await applyChanges(db, alice, staging.id, {
    publications: [publication(gitLite("git-lite", "2.44.0"), COMPONENTS.gitLite, 4)],
    grantReconciliation: { creations: [byCoordinates("git-lite", "2.44.0", false), byCoordinates("json-format", "1.4.1", true)], deletions: [] },
  });

  return { seeded: true, tokens: await issueDemoTokens(db) };
}

/**
 * New day-long tokens for the demo accounts, when the registry has them. Secrets are never stored,
 * so each demo start issues fresh ones.
 */
export async function issueDemoTokens(db: Database): Promise<DemoTokens | undefined> {
  const [alice, bob] = await Promise.all([
    db.account.findUnique({ where: { email: DEMO_OWNER_EMAIL } }),
    db.account.findUnique({ where: { email: DEMO_DEPLOYER_EMAIL } }),
  ]);
  if (!alice || !bob) return undefined;
  const expiresAt = new Date(Date.now() + DEMO_TOKEN_LIFETIME_MS);
  const issue = async (accountId: string) => (await issueToken(db, "system", { accountId, name: "demo (issued at start)", expiresAt })).secret;
  return { owner: await issue(alice.id), deployer: await issue(bob.id) };
}
