// Planned reads (src/db/planned-reads.ts) answer exactly what Prisma answers for the same findFirst
// arguments: generated selections of rows and relations (lists filtered, ordered and cut), with the
// domain's own access rules for owners, sharers, offer holders, strangers and administrators, over
// rows in every state (deleted grants, de-published releases, pending offers), on both databases.
// Arguments outside the translated subset are left to Prisma.
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedTenants, type TenantsSeed } from "../../bench/tenants-dataset.js";
import { findFirstPlanned, findManyPlanned, openDatabase, plannedReaderOf, type Database } from "../../src/db/client.js";
import type { Account } from "../../src/db/generated/sqlite/client.js";
import { planFindFirst, planFindMany, type PlannedModel } from "../../src/db/planned-reads.js";
import { findEnvironment } from "../../src/domain/environments.js";
import { findGrant, GRANT_LIST_ORDER } from "../../src/domain/grants.js";
import { environmentGrantsWhere } from "../../src/domain/permissions/index.js";
import { findRelease } from "../../src/domain/releases.js";
import { tokenLookupIn } from "../../src/domain/tokens.js";
import { writeTransaction } from "../../src/domain/write-transaction.js";
import { ListOrder } from "../../src/graphql/list-cursors.js";
import { createMigratedDatabase, describeEachDatabase } from "../helpers/service.js";

type Map = Record<string, unknown>;
const MISSING_ID = "01a21f12-0000-7000-8000-000000000000";

/** A small deterministic PRNG, so a failure names a case that can be run again. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SCALARS = {
  grant: [
    "id",
    "environmentId",
    "releaseId",
    "protected",
    "automatic",
    "followCoordinates",
    "lifecycle",
    "createdAt",
    "createdById",
    "stateChangedAt",
    "stateChangedById",
  ],
  environment: ["id", "ownerAccountId", "name", "versionCheck", "createdAt"],
  toolRelease: [
    "id",
    "ownerAccountId",
    "name",
    "version",
    "sourceKind",
    "componentId",
    "componentRevision",
    "componentName",
    "metadataVersion",
    "metadataDigest",
    "sourceDigest",
    "immutable",
    "lifecycle",
    "origin",
    "systemAvailability",
    "currentCoordinate",
    "createdAt",
    "createdById",
    "stateChangedAt",
    "stateChangedById",
  ],
  account: ["id", "name", "email", "plan", "admin", "createdAt"],
};

const GRANT_ORDERS = [new ListOrder("Grant", GRANT_LIST_ORDER), new ListOrder("Grant", [{ createdAt: "desc" }, { id: "asc" }])];

class Selections {
  /** Grant rows with their sort keys, for keyset bounds as a page after a cursor has them. */
  grantRows: Map[] = [];

  constructor(private readonly random: () => number) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  private chance(probability: number): boolean {
    return this.random() < probability;
  }

  scalars(names: readonly string[]): Map {
    const select: Map = { [this.pick(names)]: true };
    for (const name of names) if (this.chance(0.4)) select[name] = true;
    return select;
  }

  grantList(depth: number): Map {
    const list: Map = { select: this.grant(depth + 1) };
    const order = this.pick(GRANT_ORDERS);
    const filters: Map[] = [];
    if (this.chance(0.8))
      filters.push(this.pick([environmentGrantsWhere(false), environmentGrantsWhere(true), { lifecycle: "deleted" }, { release: { name: "tool-001" } }]));
    if (this.chance(0.5)) {
      const position = order.positionOf(this.pick(this.grantRows));
      filters.push(this.chance(0.5) ? order.atOrAfter(position) : order.atOrBefore(position));
    }
    if (filters.length > 0) list.where = filters.length === 1 ? filters[0] : { AND: filters };
    list.orderBy = this.chance(0.15) ? { id: "desc" } : order.orderBy;
    if (this.chance(0.7)) list.take = this.pick([0, 1, 3, 52, 500]);
    return list;
  }

  grant(depth = 0): Map {
    const select = this.scalars(SCALARS.grant);
    if (this.chance(0.6)) select.release = { select: this.release(depth + 1) };
    if (depth < 2 && this.chance(0.3)) select.environment = { select: this.environment(depth + 1) };
    if (this.chance(0.2)) select.createdBy = { select: this.scalars(SCALARS.account) };
    return select;
  }

  environment(depth = 0): Map {
    const select = this.scalars(SCALARS.environment);
    if (this.chance(0.5)) select.owner = { select: this.scalars(SCALARS.account) };
    if (depth < 1 && this.chance(0.7)) select.grants = this.grantList(depth);
    return select;
  }

  release(depth = 0): Map {
    const select = this.scalars(SCALARS.toolRelease);
    if (this.chance(0.6)) select.owner = { select: this.scalars(SCALARS.account) };
    if (depth < 1 && this.chance(0.4)) select.grants = this.grantList(depth);
    return select;
  }
}

describeEachDatabase("planned reads", (provider) => {
  let db: Database;
  let drop: () => Promise<void>;
  let seed: TenantsSeed;
  let actors: Account[];

  beforeAll(async () => {
    const scratch = await createMigratedDatabase(provider);
    drop = scratch.drop;
    db = await openDatabase(scratch.url);
    seed = await seedTenants(db, { accounts: 3, environmentsPerAccount: 2, releasesPerAccount: 5, grantsPerEnvironment: 4 });
    const [first, second, third] = seed.accounts;
    // Every state a filter tells apart: an accepted share, a pending offer, a deleted grant, a
    // de-published release, an environment checking versions.
    await db.environmentShare.create({ data: { environmentId: first!.environmentIds[0]!, accountId: second!.id, role: "deployer", acceptedAt: new Date() } });
    await db.environmentShare.create({ data: { environmentId: first!.environmentIds[1]!, accountId: third!.id, role: "viewer" } });
    await db.grant.update({ where: { id: seed.keys.grants[0]!.id }, data: { lifecycle: "deleted" } });
    await db.toolRelease.update({ where: { id: seed.keys.grants[1]!.releaseId }, data: { lifecycle: "de-published" } });
    await db.environment.update({ where: { id: first!.environmentIds[0]! }, data: { versionCheck: true } });
    const accounts = await db.account.findMany({ where: { id: { in: seed.accounts.map((account) => account.id) } } });
    actors = [...accounts, { ...accounts[0]!, id: "01a21f12-0000-7000-8000-00000000ad01", admin: true }];
  }, 60_000);

  afterAll(async () => {
    await db?.$disconnect();
    await drop?.();
  });

  /** Runs `find` (the domain's find, so its access rules) and hands both readers the same arguments. */
  /** Prisma's row for `args`, after checking the planned reader answers the same (when it plans them). */
  async function compare(model: PlannedModel, args: Map): Promise<{ outcome: "planned" | "unplanned"; row: unknown }> {
    const planned = plannedReaderOf(db)(model, args);
    const row = await (db[model] as unknown as { findFirst(args: Map): Promise<unknown> }).findFirst(args);
    if (!planned) return { outcome: "unplanned", row };
    expect(await planned, JSON.stringify(args)).toEqual(row);
    return { outcome: "planned", row };
  }

  it("answer what Prisma answers, for generated selections, every kind of caller and every id", async () => {
    const random = prng(20261127);
    const selections = new Selections(random);
    selections.grantRows = await db.grant.findMany({ select: { id: true, createdAt: true, release: { select: { name: true, version: true } } } });
    const ids = {
      grant: [...seed.keys.grants.map((grant) => grant.id), MISSING_ID],
      environment: [...seed.accounts.flatMap((account) => account.environmentIds), MISSING_ID],
      toolRelease: [...new Set(seed.keys.grants.map((grant) => grant.releaseId)), MISSING_ID],
    };
    const finds = {
      grant: findGrant,
      environment: findEnvironment,
      toolRelease: findRelease,
    } as const;
    const outcomes = { planned: 0, unplanned: 0, found: 0 };
    for (let index = 0; index < 240; index++) {
      const model = (["grant", "environment", "toolRelease"] as const)[index % 3]!;
      const actor = actors[Math.floor(random() * actors.length)]!;
      const id = ids[model][Math.floor(random() * ids[model].length)]!;
      const select = model === "grant" ? selections.grant() : model === "environment" ? selections.environment() : selections.release();
      await (finds[model] as typeof findGrant)(actor, id, async (where) => {
        const args = { select, where };
        const { outcome, row } = await compare(model, args);
        outcomes[outcome] += 1;
        if (row) outcomes.found += 1;
        return row;
      }).catch((error: unknown) => {
        if (!(error instanceof Error && /NOT_FOUND|not found/i.test(`${(error as { code?: string }).code ?? ""} ${error.message}`))) throw error;
      });
    }
    // Every generated case was within the translated subset, and both found and missing rows were compared.
    expect(outcomes.unplanned).toBe(0);
    expect(outcomes.planned).toBe(240);
    expect(outcomes.found).toBeGreaterThan(60);
    expect(outcomes.found).toBeLessThan(220);
  });

  it("answer what Prisma answers for relation filters under NOT and OR, where the related row's column is NULL", async () => {
    const grant = seed.keys.grants[3]!;
    await db.toolRelease.update({ where: { id: grant.releaseId }, data: { currentCoordinate: null } });
    try {
      const select = { id: true, release: { select: { id: true, currentCoordinate: true } } };
      const filters: Map[] = [
        { NOT: { release: { currentCoordinate: true } } },
        { release: { NOT: { currentCoordinate: true } } },
        { NOT: { release: { NOT: { currentCoordinate: true } } } },
        { OR: [{ release: { currentCoordinate: false } }, { NOT: { release: { currentCoordinate: false } } }] },
        { release: { currentCoordinate: null } },
        { NOT: { release: { currentCoordinate: { not: null } } } },
      ];
      const rows = [];
      for (const filter of filters) {
        const { outcome, row } = await compare("grant", { select, where: { AND: [{ id: grant.id }, filter] } });
        expect(outcome).toBe("planned");
        rows.push(row);
      }
      // A NULL column makes a comparison and its negation both miss the row, and IS NULL find it: both were compared.
      expect(rows.some((row) => row === null)).toBe(true);
      expect(rows.some((row) => row !== null)).toBe(true);
    } finally {
      await db.toolRelease.update({ where: { id: grant.releaseId }, data: { currentCoordinate: true } });
    }
  });

  it("answer counts of list relations as Prisma does, filtered or not", async () => {
    const counts: Map[] = [
      { select: { grants: { where: { lifecycle: "active" } } } },
      { select: { grants: true, shares: true } },
      { select: { grants: { where: { release: { lifecycle: "de-published" } } }, shares: { where: { acceptedAt: { not: null } } } } },
    ];
    let found = 0;
    for (const environmentId of [...seed.accounts.flatMap((account) => account.environmentIds), MISSING_ID]) {
      for (const _count of counts) {
        const { outcome, row } = await compare("environment", { where: { id: environmentId }, select: { id: true, _count } });
        expect(outcome).toBe("planned");
        if (row) found += 1;
      }
    }
    expect(found).toBe(seed.accounts.length * 2 * counts.length);
  });

  it("answer lists as Prisma does inside write transactions, both kinds, and leave lists without an order to Prisma", async () => {
    const environmentIds = seed.accounts.flatMap((account) => account.environmentIds);
    const lists: Array<{ model: PlannedModel; args: Map }> = [
      {
        model: "grant",
        args: { where: { environmentId: { in: environmentIds } }, select: { id: true, lifecycle: true, createdAt: true }, orderBy: GRANT_LIST_ORDER },
      },
      { model: "grant", args: { where: { lifecycle: "active" }, select: { id: true, release: { select: { name: true } } }, orderBy: { id: "desc" }, take: 3 } },
      {
        model: "toolRelease",
        args: { where: { id: { in: seed.keys.grants.map((grant) => grant.releaseId) } }, select: { id: true, immutable: true }, orderBy: { id: "asc" } },
      },
      { model: "grant", args: { where: { id: MISSING_ID }, select: { id: true }, orderBy: { id: "asc" } } },
    ];
    for (const { model, args } of lists) {
      const prisma = await (db[model] as unknown as { findMany(args: Map): Promise<unknown[]> }).findMany(args);
      expect(planFindMany({ postgres: provider === "postgresql" }, model, args), JSON.stringify(args)).toBeDefined();
      for (const statements of ["prisma", "below-engine"] as const) {
        expect(await writeTransaction(db, [], (tx) => findManyPlanned(tx, model, args as never), statements), JSON.stringify(args)).toEqual(prisma);
      }
    }
    expect(planFindMany({ postgres: provider === "postgresql" }, "grant", { select: { id: true } })).toBeUndefined();
  });

  it("join a grant's release once, however many times its selection, order and filter read it", () => {
    const args = {
      select: {
        id: true,
        grants: {
          select: { id: true, release: { select: { name: true, version: true, owner: { select: { name: true } } } } },
          where: environmentGrantsWhere(false),
          orderBy: GRANT_LIST_ORDER,
          take: 50,
        },
      },
      where: { id: MISSING_ID },
    };
    const plan = planFindFirst({ postgres: provider === "postgresql" }, "environment", args)!;
    expect(plan.sql.match(/"ToolRelease"/g)).toHaveLength(1);
    expect(plan.sql.match(/"Account"/g)).toHaveLength(1);
    expect(JSON.stringify(GRANT_LIST_ORDER)).toContain("release");
    expect(JSON.stringify(environmentGrantsWhere(false))).toContain("release");
  });

  it("answer a request's token with its account as Prisma does: live, revoked, expired, an administrator's, unknown", async () => {
    const [live, revoked, expired] = await Promise.all(seed.accounts.map((account) => db.apiToken.findFirstOrThrow({ where: { accountId: account.id } })));
    await db.apiToken.update({ where: { id: revoked!.id }, data: { revokedAt: new Date() } });
    await db.apiToken.update({ where: { id: expired!.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await db.account.update({ where: { id: live!.accountId }, data: { admin: true } });
    const lookup = tokenLookupIn(db);
    for (const secretHash of [live!.secretHash, revoked!.secretHash, expired!.secretHash, "0".repeat(64)]) {
      const prisma = await db.apiToken.findUnique({ where: { secretHash }, select: { id: true, revokedAt: true, expiresAt: true, account: true } });
      expect(await lookup(secretHash)).toEqual(prisma);
    }
    expect(plannedReaderOf(db)("apiToken", { where: { secretHash: live!.secretHash }, select: { id: true } })).toBeDefined();
    await db.account.update({ where: { id: live!.accountId }, data: { admin: false } });
  });

  it("leave arguments outside the translated subset to Prisma", async () => {
    const grant = seed.keys.grants[2]!;
    const outside: Map[] = [
      { where: { id: grant.id }, select: { id: true }, orderBy: { id: "asc" } },
      { where: { id: { endsWith: grant.id.slice(-6) } }, select: { id: true } },
      { where: { id: { startsWith: grant.id.slice(0, 8) } }, select: { id: true } },
      { where: { id: grant.id }, include: { release: true } },
      { where: { id: grant.id }, select: { release: { select: { grants: { select: { id: true }, orderBy: { id: "asc" }, cursor: { id: grant.id } } } } } },
      { where: { id: grant.id }, select: { release: { select: { grants: { select: { id: true }, take: 2 } } } } },
    ];
    for (const args of outside) {
      expect(plannedReaderOf(db)("grant", args), JSON.stringify(args)).toBeUndefined();
      // findFirstPlanned falls back to Prisma for them.
      expect(await findFirstPlanned(db, "grant", args as Map & { where: unknown })).toEqual(await db.grant.findFirst(args as never));
    }
  });
});
