// The benchmark's data set: accounts, their environments, releases with definitions of
// 5–50 KB and 50–100 grants per environment, seeded through the domain layer the way users publish
// (validate-and-apply bodies). Sizes and counts are deterministic; ids are not.
import type { Database } from "../src/db/client.js";
import { createAccount, issueToken } from "../src/domain/accounts.js";
import { createEnvironment } from "../src/domain/environments.js";
import { applyChanges } from "../src/domain/publications.js";
import { definitionOfSize, targetBytesOf } from "./definitions.js";

export interface DatasetShape {
  accounts: number;
  environmentsPerAccount: number;
  releasesPerAccount: number;
  /** Grants per environment: the first environment (the one measured) has `min`, the others spread up to `max`. */
  grants: { min: number; max: number };
}

export const FULL_DATASET: DatasetShape = { accounts: 5, environmentsPerAccount: 4, releasesPerAccount: 100, grants: { min: 50, max: 100 } };

/** What the scenarios read: everything belongs to the first account, whose token they use. */
export interface Subject {
  token: string;
  accountId: string;
  /** The environment with exactly `grants.min` grants. */
  environmentId: string;
  grantIds: string[];
  releaseIds: string[];
}

export interface SeedSummary {
  subject: Subject;
  counts: { accounts: number; environments: number; releases: number; grants: number };
  definitionBytes: { min: number; median: number; max: number };
}

/** Grants of environment `index` of an account: `min` for the first, then a fixed spread up to `max`. */
export function grantCountOf(index: number, shape: DatasetShape): number {
  if (index === 0) return shape.grants.min;
  const span = shape.grants.max - shape.grants.min;
  return shape.grants.min + Math.round((span * ((index * 37) % (shape.environmentsPerAccount + 1))) / shape.environmentsPerAccount);
}

const componentId = (account: number, release: number) =>
  `00000000-0000-4000-8000-${account.toString(16).padStart(4, "0")}${release.toString(16).padStart(8, "0")}`;

export async function seedDataset(db: Database, shape: DatasetShape = FULL_DATASET): Promise<SeedSummary> {
  const totalReleases = shape.accounts * shape.releasesPerAccount;
  const sizes: number[] = [];
  let environments = 0;
  let grants = 0;
  let subject: Subject | undefined;
  for (let a = 0; a < shape.accounts; a++) {
    const account = await createAccount(db, "system", { name: `Bench account ${a}`, email: `bench-${a}@example.test`, plan: "team" });
    const envs = [];
    for (let e = 0; e < shape.environmentsPerAccount; e++) {
      envs.push(await createEnvironment(db, "system", { accountId: account.id, name: `env-${e}` }));
    }
    environments += envs.length;
    const publications = Array.from({ length: shape.releasesPerAccount }, (_, r) => {
      const bytes = targetBytesOf(a * shape.releasesPerAccount + r, totalReleases);
      const name = `tool-${String(r).padStart(3, "0")}`;
      const definition = definitionOfSize(name, `1.${r % 7}.${a}`, bytes);
      return { name, definition, source: { kind: "component", componentId: componentId(a, r), componentRevision: 1 + (r % 5), componentName: name } };
    });
    // The first apply publishes every release of the account and grants the first environment's share.
    const published = await applyChanges(db, account, envs[0]!.id, { publications, grantReconciliation: { creations: [], deletions: [] } });
    const releaseIds = published.releases.map((release) => release.id);
    sizes.push(...published.releases.map((release) => Buffer.byteLength(release.definition)));
    for (const [e, environment] of envs.entries()) {
      const count = grantCountOf(e, shape);
      const offset = (e * 23) % shape.releasesPerAccount;
      const creations = Array.from({ length: count }, (_, g) => ({
        release: { type: "ById", releaseId: releaseIds[(offset + g) % releaseIds.length]! },
        automatic: g % 3 === 0,
      }));
      const applied = await applyChanges(db, account, environment.id, { publications: [], grantReconciliation: { creations, deletions: [] } });
      grants += applied.grants.length;
      if (a === 0 && e === 0) {
        const { secret } = await issueToken(db, "system", { accountId: account.id, name: "bench" });
        subject = { token: secret, accountId: account.id, environmentId: environment.id, grantIds: applied.grants.map((grant) => grant.id), releaseIds };
      }
    }
  }
  sizes.sort((x, y) => x - y);
  return {
    subject: subject!,
    counts: { accounts: shape.accounts, environments, releases: totalReleases, grants },
    definitionBytes: { min: sizes[0]!, median: sizes[Math.floor(sizes.length / 2)]!, max: sizes[sizes.length - 1]! },
  };
}
