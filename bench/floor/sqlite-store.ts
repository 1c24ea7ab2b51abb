// The floor's reads on SQLite: better-sqlite3 statements prepared once, run synchronously.
import Database from "better-sqlite3";
import type { Step, Steps, WriteDialect } from "./writes.js";
import { ACTIVE_GRANT, GRANT_JOINS, GRANT_ORDER, GRANT_VIEW_COLUMNS, type FloorActor, type FloorStore, type GrantViewRow, type ReleaseRow } from "./store.js";

/** Prisma stores DateTime as `2026-01-02T03:04:05.678+00:00`; toolgate answers `…05.678Z`. */
const iso = (stored: string) => new Date(stored).toISOString();

const VISIBLE_ENVIRONMENT = `(@admin = 1 OR e."ownerAccountId" = @actor
  OR EXISTS (SELECT 1 FROM "EnvironmentShare" s WHERE s."environmentId" = e."id" AND s."accountId" = @actor))`;

type Raw = Record<string, unknown>;

/** What the writes bind as Prisma's SQLite adapter does: booleans as 0/1, DateTime as `…+00:00` text. */
const DIALECT: WriteDialect = {
  postgres: false,
  bool: (value) => (value ? 1 : 0),
  stamp: (date) => date.toISOString().replace("Z", "+00:00"),
  iso: (stored) => iso(stored as string),
};

/**
 * The writes' own connection (the reads' is read-only), set up as toolgate's: WAL, foreign keys
 * checked. Each write is one BEGIN IMMEDIATE … COMMIT run synchronously, so writes never interleave.
 */
function openWriter(filePath: string): <T>(steps: Steps<T>) => T {
  const db = new Database(filePath, { fileMustExist: true, timeout: 5000 });
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  const statements = new Map<string, Database.Statement>();
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const rollback = db.prepare("ROLLBACK");
  const execute = (step: Step): unknown => {
    let statement = statements.get(step.name);
    if (!statement) statements.set(step.name, (statement = db.prepare(step.sql)));
    if (step.mode === "get") return statement.get(...step.params);
    if (step.mode === "all") return statement.all(...step.params);
    return statement.run(...step.params).changes;
  };
  return (steps) => {
    begin.run();
    try {
      let next = steps.next();
      while (!next.done) next = steps.next(execute(next.value));
      commit.run();
      return next.value;
    } catch (error) {
      if (db.inTransaction) rollback.run();
      throw error;
    }
  };
}

function grantViewRow(raw: Raw): GrantViewRow {
  return {
    ...(raw as unknown as GrantViewRow),
    protected: raw.protected === 1,
    automatic: raw.automatic === 1,
    followCoordinates: raw.followCoordinates === 1,
    createdAt: iso(raw.createdAt as string),
    stateChangedAt: iso(raw.stateChangedAt as string),
  };
}

export function openSqliteStore(filePath: string): FloorStore {
  const db = new Database(filePath, { readonly: true, fileMustExist: true });
  const statements = {
    actor: db.prepare(
      `SELECT a."id", a."admin", t."revokedAt", t."expiresAt" FROM "ApiToken" t JOIN "Account" a ON a."id" = t."accountId" WHERE t."secretHash" = ?`,
    ),
    grantView: db.prepare(
      `SELECT ${GRANT_VIEW_COLUMNS} ${GRANT_JOINS} JOIN "Environment" e ON e."id" = g."environmentId"
       WHERE g."id" = @id AND ${ACTIVE_GRANT} AND ${VISIBLE_ENVIRONMENT}`,
    ),
    release: db.prepare(`SELECT * FROM "ToolRelease" WHERE "id" = @id AND (@admin = 1 OR "ownerAccountId" = @actor)`),
    environmentName: db.prepare(`SELECT e."name" FROM "Environment" e WHERE e."id" = @id AND ${VISIBLE_ENVIRONMENT}`),
    activeGrantViews: db.prepare(`SELECT ${GRANT_VIEW_COLUMNS} ${GRANT_JOINS} WHERE g."environmentId" = ? AND ${ACTIVE_GRANT} ${GRANT_ORDER}`),
    activeGrantSummaries: db.prepare(
      `SELECT g."id", r."name" AS "releaseName", r."version" AS "releaseVersion", o."name" AS "ownerName"
       ${GRANT_JOINS} WHERE g."environmentId" = ? AND ${ACTIVE_GRANT} ${GRANT_ORDER}`,
    ),
  };
  const scope = (actor: FloorActor, id: string) => ({ id, actor: actor.id, admin: actor.admin ? 1 : 0 });
  let writer: (<T>(steps: Steps<T>) => T) | undefined;
  return {
    dialect: DIALECT,
    async write(steps) {
      writer ??= openWriter(filePath);
      return writer(steps);
    },
    async actor(secretHash) {
      const row = statements.actor.get(secretHash) as { id: string; admin: number; revokedAt: string | null; expiresAt: string | null } | undefined;
      if (!row || row.revokedAt !== null || (row.expiresAt !== null && new Date(row.expiresAt) <= new Date())) return undefined;
      return { id: row.id, admin: row.admin === 1 };
    },
    async grantView(actor, grantId) {
      const raw = statements.grantView.get(scope(actor, grantId)) as Raw | undefined;
      return raw && grantViewRow(raw);
    },
    async release(actor, releaseId) {
      const raw = statements.release.get(scope(actor, releaseId)) as Raw | undefined;
      if (!raw) return undefined;
      return {
        ...(raw as unknown as ReleaseRow),
        immutable: raw.immutable === 1,
        createdAt: iso(raw.createdAt as string),
        stateChangedAt: iso(raw.stateChangedAt as string),
      };
    },
    async environmentName(actor, environmentId) {
      return (statements.environmentName.get(scope(actor, environmentId)) as { name: string } | undefined)?.name;
    },
    async activeGrantViews(environmentId) {
      return (statements.activeGrantViews.all(environmentId) as Raw[]).map(grantViewRow);
    },
    async activeGrantSummaries(environmentId) {
      return statements.activeGrantSummaries.all(environmentId) as never;
    },
    async close() {
      db.close();
    },
  };
}
