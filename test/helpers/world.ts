// A small registry for API tests, built through the domain layer (never raw SQL): an owner with an
// environment shared to a deployer and a viewer, a stranger, and their real API tokens.
import { randomUUID } from "node:crypto";
import { createAccount, issueToken } from "../../src/domain/accounts.js";
import { createEnvironment, shareEnvironment } from "../../src/domain/environments.js";
import type { Plan } from "../../src/domain/plans.js";
import { applyChanges } from "../../src/domain/publications.js";
import { insertRelease } from "../../src/domain/releases.js";
import type { Account, Environment, ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { definitionFor } from "../fixtures/definitions/index.js";
import { client, type Client } from "./http.js";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { startTestService, type TestService } from "./service.js";

export interface Member {
  account: Account;
  token: string;
  http: Client;
}

export interface World {
  service: TestService;
  admin: Client;
  anonymous: Client;
  owner: Member;
  deployer: Member;
  viewer: Member;
  stranger: Member;
  environment: Environment;
  member(options?: { plan?: Plan; name?: string }): Promise<Member>;
  environmentOf(owner: Member, options?: { versionCheck?: boolean; name?: string }): Promise<Environment>;
  /** Publishes a valid definition named `name` at `version`, owned by `owner`, through apply. */
  publish(owner: Member, name: string, version: string, options?: { immutable?: boolean; origin?: "ordinary" | "protected-system" }): Promise<ToolRelease>;
}

let sequence = 0;

export async function createWorld(service: TestService): Promise<World> {
  const db = service.db;
  const member = async (options: { plan?: Plan; name?: string } = {}): Promise<Member> => {
    sequence += 1;
    const name = options.name ?? `member-${sequence}`;
    const account = await createAccount(db, "system", { name, email: `${name}-${randomUUID().slice(0, 8)}@example.test`, plan: options.plan ?? "team" });
    const { secret } = await issueToken(db, "system", { accountId: account.id, name: "test" });
    return { account, token: secret, http: client(service.url, secret) };
  };
  const environmentOf = (owner: Member, options: { versionCheck?: boolean; name?: string } = {}) =>
    createEnvironment(db, "system", { accountId: owner.account.id, name: options.name ?? `env-${++sequence}`, versionCheck: options.versionCheck ?? false });
  // Releases are published the way users publish them: apply, in an environment of the owner whose
  // versionCheck gives the wanted immutability. Only protected-system releases, which no user can
  // publish, are provisioned through the domain's insert.
  const pipelines = new Map<string, Promise<Environment>>();
  const pipelineOf = (owner: Member, immutable: boolean) => {
    const key = `${owner.account.id}:${immutable}`;
    let pipeline = pipelines.get(key);
    if (!pipeline) {
      pipeline = createEnvironment(db, "system", {
        accountId: owner.account.id,
        name: immutable ? "release-pipeline-immutable" : "release-pipeline",
        versionCheck: immutable,
      });
      pipelines.set(key, pipeline);
    }
    return pipeline;
  };
  const publish: World["publish"] = async (owner, name, version, options = {}) => {
    const definition = definitionFor(name, version);
    const source = { componentId: randomUUID(), componentRevision: 1, componentName: `${name}-component` };
    if (options.origin === "protected-system") {
      return insertRelease(db, {
        ownerAccountId: owner.account.id,
        actorId: owner.account.id,
        definition,
        source,
        immutable: options.immutable ?? false,
        origin: "protected-system",
      });
    }
    const pipeline = await pipelineOf(owner, options.immutable ?? false);
    const applied = await applyChanges(db, owner.account, pipeline.id, {
      publications: [{ name, definition, source: { kind: "component", ...source } }],
      grantReconciliation: { creations: [], deletions: [] },
    });
    const release = applied.releases[0];
    if (!release) throw new Error(`world.publish: ${name}@${version} was not published (${applied.publicationPlan[0]?.action})`);
    return release;
  };

  const owner = await member({ name: "owner" });
  const deployer = await member({ name: "deployer" });
  const viewer = await member({ name: "viewer" });
  const stranger = await member({ name: "stranger" });
  const environment = await environmentOf(owner, { name: "production" });
  await shareEnvironment(db, "system", { environmentId: environment.id, accountId: deployer.account.id, role: "deployer" });
  await shareEnvironment(db, "system", { environmentId: environment.id, accountId: viewer.account.id, role: "viewer" });
  return {
    service,
    admin: client(service.url, service.adminToken),
    anonymous: client(service.url),
    owner,
    deployer,
    viewer,
    stranger,
    environment,
    member,
    environmentOf,
    publish,
  };
}

/** A service on `provider`, its world, and the owner's immutable git-lite 2.43.0: the fixture of the single-release suites. */
export async function startWorldWithRelease(provider: DatabaseProvider): Promise<{ service: TestService; world: World; release: ToolRelease }> {
  const service = await startTestService(provider);
  const world = await createWorld(service);
  const release = await world.publish(world.owner, "git-lite", "2.43.0", { immutable: true });
  return { service, world, release };
}
