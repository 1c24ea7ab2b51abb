// The many-tenant data set (`npm run bench -- --scenario tenants`): many accounts, each with its
// environments, releases, grants and token. Seeded with bulk inserts (createMany) into the real
// tables, rows as the domain writes them: validate-and-apply's release and grant columns (canonical
// definition text, digests, coordinates, lifecycles), token hashes as issueToken stores them, and
// one change event per created row, with the state and scope appendEvent gives it. Seeding 2,000
// releases through applyChanges takes many minutes; this takes well under one.
import { uuidv7 } from "uuidv7";
import { openDatabase, type Database, type Prisma } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { canonicalJson, metadataDigest, METADATA_VERSION, sourceDigest } from "../src/domain/definitions/index.js";
import { validatedDefinition } from "../src/domain/releases.js";
import type { PendingEvent } from "../src/domain/event-streams.js";
import { generateSecret, hashSecret } from "../src/domain/tokens.js";
import { definitionOfSize, targetBytesOf } from "./definitions.js";

export interface TenantsShape {
  accounts: number;
  environmentsPerAccount: number;
  /** Releases per account, every one granted in every environment of the account (so ≥ grantsPerEnvironment). */
  releasesPerAccount: number;
  grantsPerEnvironment: number;
}

export const TENANTS_DATASET: TenantsShape = { accounts: 40, environmentsPerAccount: 20, releasesPerAccount: 50, grantsPerEnvironment: 50 };

export interface TenantAccount {
  id: string;
  /** The account's API token (its secret). */
  token: string;
  environmentIds: string[];
  /**
   * One more release per account, granted nowhere: the writes grant it to an environment and
   * delete that grant again, so the read keys never change.
   */
  spareReleaseId: string;
}

/** The read keys, each with the index of the account that owns it. */
export interface TenantKeys {
  grants: Array<{ id: string; account: number; environmentId: string; releaseId: string; automatic: boolean }>;
  releases: Array<{ id: string; account: number }>;
  environments: Array<{ id: string; account: number }>;
}

export interface TenantsSeed {
  accounts: TenantAccount[];
  keys: TenantKeys;
  counts: { accounts: number; environments: number; releases: number; grants: number; tokens: number; events: number };
  definitionBytes: { min: number; median: number; max: number };
}

/** Rows per createMany: below PostgreSQL's 65,535 bind parameters, and a few MB of definitions at most. */
const BATCH_ROWS = 1000;
const RELEASE_BATCH_ROWS = 100;

async function inBatches<Row>(rows: Row[], size: number, insert: (batch: Row[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += size) await insert(rows.slice(start, start + size));
}

const componentId = (account: number, release: number) =>
  `00000000-0000-4000-9000-${account.toString(16).padStart(4, "0")}${release.toString(16).padStart(8, "0")}`;

/** A millisecond clock that only moves forward, so rows created "in order" keep their order. */
function ticking(): () => Date {
  let at = Date.now() - 60_000;
  return () => new Date((at += 1));
}

type EventRow = PendingEvent & { id: string };

export async function seedTenants(db: Database, shape: TenantsShape = TENANTS_DATASET): Promise<TenantsSeed> {
  if (shape.grantsPerEnvironment > shape.releasesPerAccount) throw new Error("tenants: more grants per environment than releases per account");
  const now = ticking();
  const accounts: TenantAccount[] = [];
  const keys: TenantKeys = { grants: [], releases: [], environments: [] };
  const rows = {
    accounts: [] as Prisma.AccountCreateManyInput[],
    tokens: [] as Prisma.ApiTokenCreateManyInput[],
    environments: [] as Prisma.EnvironmentCreateManyInput[],
    releases: [] as Prisma.ToolReleaseCreateManyInput[],
    grants: [] as Prisma.GrantCreateManyInput[],
  };
  const events: EventRow[] = [];
  const event = (type: string, at: Date, scope: Omit<EventRow, "id" | "type" | "occurredAt" | "state">, state: Record<string, unknown>) =>
    events.push({ id: uuidv7(), type, occurredAt: at, ...scope, state: JSON.stringify(state) });
  const sizes: number[] = [];
  const releasesInAll = shape.accounts * shape.releasesPerAccount;

  for (let a = 0; a < shape.accounts; a++) {
    // Members in the models' field order, as Prisma returns rows and appendEvent stores their state.
    const accountAt = now();
    const account = { id: uuidv7(), name: `Tenant ${a}`, email: `tenant-${a}@example.test`, plan: "team", admin: false, createdAt: accountAt };
    rows.accounts.push(account);
    event("account-created", accountAt, { actorAccountId: null, environmentId: null, releaseId: null, accountId: account.id }, account);

    const secret = generateSecret();
    const tokenAt = now();
    const token = { id: uuidv7(), accountId: account.id, name: "bench", secretHash: hashSecret(secret), createdAt: tokenAt, expiresAt: null, revokedAt: null };
    rows.tokens.push(token);
    const { secretHash: _secretHash, ...tokenState } = token;
    event("api-token-issued", tokenAt, { actorAccountId: null, environmentId: null, releaseId: null, accountId: account.id }, tokenState);

    const environmentIds: string[] = [];
    for (let e = 0; e < shape.environmentsPerAccount; e++) {
      const at = now();
      const environment = { id: uuidv7(), ownerAccountId: account.id, name: `env-${e}`, versionCheck: false, createdAt: at };
      rows.environments.push(environment);
      environmentIds.push(environment.id);
      keys.environments.push({ id: environment.id, account: a });
      event("environment-created", at, { actorAccountId: null, environmentId: environment.id, releaseId: null, accountId: account.id }, environment);
    }

    // What applyChanges publishes from the first environment: insertRelease's columns.
    const releaseIds: string[] = [];
    for (let r = 0; r <= shape.releasesPerAccount; r++) {
      const spare = r === shape.releasesPerAccount;
      const name = spare ? "tool-spare" : `tool-${String(r).padStart(3, "0")}`;
      const bytes = spare ? 5 * 1024 : targetBytesOf(a * shape.releasesPerAccount + r, releasesInAll);
      const definition = validatedDefinition(definitionOfSize(name, `1.${r % 7}.${a}`, bytes));
      const source = { componentId: componentId(a, r), componentRevision: 1 + (r % 5), componentName: name };
      const at = now();
      const release = {
        id: uuidv7(),
        ownerAccountId: account.id,
        name: definition.name,
        version: definition.version,
        sourceKind: "component",
        ...source,
        metadataVersion: METADATA_VERSION,
        metadataDigest: metadataDigest(definition),
        sourceDigest: sourceDigest(source),
        immutable: false,
        lifecycle: "published",
        origin: "ordinary",
        systemAvailability: "grantable",
        currentCoordinate: true,
        createdAt: at,
        createdById: account.id,
        stateChangedAt: at,
        stateChangedById: account.id,
        definition: canonicalJson(definition),
      };
      rows.releases.push(release);
      const { definition: stored, currentCoordinate: _currentCoordinate, ...releaseState } = release;
      event(
        "release-published",
        at,
        { actorAccountId: account.id, environmentId: environmentIds[0]!, releaseId: release.id, accountId: account.id },
        releaseState,
      );
      if (spare) {
        accounts.push({ id: account.id, token: secret, environmentIds, spareReleaseId: release.id });
      } else {
        releaseIds.push(release.id);
        keys.releases.push({ id: release.id, account: a });
        sizes.push(Buffer.byteLength(stored));
      }
    }

    // What applyChanges grants by id, one environment after the other (dataset.ts's spread).
    for (const [e, environmentId] of environmentIds.entries()) {
      const offset = (e * 23) % shape.releasesPerAccount;
      for (let g = 0; g < shape.grantsPerEnvironment; g++) {
        const at = now();
        const grant = {
          id: uuidv7(),
          environmentId,
          releaseId: releaseIds[(offset + g) % releaseIds.length]!,
          protected: false,
          automatic: g % 3 === 0,
          followCoordinates: false,
          lifecycle: "active",
          createdAt: at,
          createdById: account.id,
          stateChangedAt: at,
          stateChangedById: account.id,
        };
        rows.grants.push(grant);
        keys.grants.push({ id: grant.id, account: a, environmentId, releaseId: grant.releaseId, automatic: grant.automatic });
        event("grant-created", at, { actorAccountId: account.id, environmentId, releaseId: grant.releaseId, accountId: account.id }, grant);
      }
    }
  }

  // Parents before children; one createMany per batch, each its own statement.
  await inBatches(rows.accounts, BATCH_ROWS, (data) => db.account.createMany({ data }));
  await inBatches(rows.tokens, BATCH_ROWS, (data) => db.apiToken.createMany({ data }));
  await inBatches(rows.environments, BATCH_ROWS, (data) => db.environment.createMany({ data }));
  await inBatches(rows.releases, RELEASE_BATCH_ROWS, (data) => db.toolRelease.createMany({ data }));
  await inBatches(rows.grants, BATCH_ROWS, (data) => db.grant.createMany({ data }));
  await inBatches(events, BATCH_ROWS, (data) => db.changeEvent.createMany({ data }));

  sizes.sort((x, y) => x - y);
  return {
    accounts,
    keys,
    counts: {
      accounts: rows.accounts.length,
      environments: rows.environments.length,
      releases: rows.releases.length,
      grants: rows.grants.length,
      tokens: rows.tokens.length,
      events: events.length,
    },
    definitionBytes: { min: sizes[0]!, median: sizes[Math.floor(sizes.length / 2)]!, max: sizes[sizes.length - 1]! },
  };
}

/**
 * Migrates the scratch database at `url`, seeds the tenants into it and, on PostgreSQL, vacuums it
 * (otherwise autovacuum visits the fresh tables during the first runs); with the seconds it took.
 */
export async function seedTenantsDatabase(url: string, provider: DatabaseProvider, shape?: TenantsShape): Promise<{ seed: TenantsSeed; seconds: number }> {
  const started = performance.now();
  await migrateDatabase(url);
  const db = await openDatabase(url);
  try {
    const seed = await seedTenants(db, shape);
    if (provider === "postgresql") await db.$executeRawUnsafe("VACUUM ANALYZE");
    return { seed, seconds: (performance.now() - started) / 1000 };
  } finally {
    await db.$disconnect();
  }
}
