// The floor's reads on PostgreSQL: named (server-side prepared) statements over a node-postgres
// pool as large as toolgate's default.
import pg from "pg";
import { DEFAULT_POSTGRES_SETTINGS } from "../../src/db/connection.js";
import type { WriteDialect } from "./writes.js";
import { ACTIVE_GRANT, GRANT_JOINS, GRANT_ORDER, GRANT_VIEW_COLUMNS, type FloorActor, type FloorStore, type GrantViewRow, type ReleaseRow } from "./store.js";

const TIMESTAMP_OID = 1114;

/** Prisma's TIMESTAMP(3) columns hold UTC without a zone; read as text, answered as toolgate does (`…05.678Z`). */
const iso = (stored: string) => new Date(`${stored.replace(" ", "T")}Z`).toISOString();

/** What the writes bind: booleans as such, DateTime as ISO text (a TIMESTAMP without zone takes the UTC time, ignoring the `Z`). */
const DIALECT: WriteDialect = {
  postgres: true,
  bool: (value) => value,
  stamp: (date) => date.toISOString(),
  iso: (stored) => iso(stored as string),
};

/** `?` placeholders numbered: `$1`, `$2`, … */
const numbered = new Map<string, string>();
function postgresText(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let index = 0;
    numbered.set(sql, (text = sql.replace(/\?/g, () => `$${++index}`)));
  }
  return text;
}

const VISIBLE_ENVIRONMENT = `($3::boolean OR e."ownerAccountId" = $2
  OR EXISTS (SELECT 1 FROM "EnvironmentShare" s WHERE s."environmentId" = e."id" AND s."accountId" = $2))`;

const STATEMENTS = {
  actor: `SELECT a."id", a."admin", t."revokedAt", t."expiresAt" FROM "ApiToken" t JOIN "Account" a ON a."id" = t."accountId" WHERE t."secretHash" = $1`,
  grantView: `SELECT ${GRANT_VIEW_COLUMNS} ${GRANT_JOINS} JOIN "Environment" e ON e."id" = g."environmentId"
    WHERE g."id" = $1 AND ${ACTIVE_GRANT} AND ${VISIBLE_ENVIRONMENT}`,
  release: `SELECT * FROM "ToolRelease" WHERE "id" = $1 AND ($3::boolean OR "ownerAccountId" = $2)`,
  environmentName: `SELECT e."name" FROM "Environment" e WHERE e."id" = $1 AND ${VISIBLE_ENVIRONMENT}`,
  activeGrantViews: `SELECT ${GRANT_VIEW_COLUMNS} ${GRANT_JOINS} WHERE g."environmentId" = $1 AND ${ACTIVE_GRANT} ${GRANT_ORDER}`,
  activeGrantSummaries: `SELECT g."id", r."name" AS "releaseName", r."version" AS "releaseVersion", o."name" AS "ownerName"
    ${GRANT_JOINS} WHERE g."environmentId" = $1 AND ${ACTIVE_GRANT} ${GRANT_ORDER}`,
};

export function openPostgresStore(databaseUrl: string): FloorStore {
  const types = {
    getTypeParser: (oid: number, format?: "text" | "binary") => (oid === TIMESTAMP_OID ? (value: string) => value : pg.types.getTypeParser(oid, format)),
  };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: DEFAULT_POSTGRES_SETTINGS.poolSize, types: types as pg.CustomTypesConfig });
  pool.on("error", () => {});
  const rows = async <Row>(name: keyof typeof STATEMENTS, values: unknown[]) =>
    (await pool.query<Row & pg.QueryResultRow>({ name, text: STATEMENTS[name], values })).rows;
  const scoped = (actor: FloorActor, id: string) => [id, actor.id, actor.admin];
  const grantViewRow = (row: GrantViewRow): GrantViewRow => ({ ...row, createdAt: iso(row.createdAt), stateChangedAt: iso(row.stateChangedAt) });
  return {
    dialect: DIALECT,
    /** One READ COMMITTED transaction on one pooled client, as toolgate's writeTransaction on PostgreSQL. */
    async write(steps) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN ISOLATION LEVEL READ COMMITTED");
        let next = steps.next();
        while (!next.done) {
          const step = next.value;
          const result = await client.query({ name: step.name, text: postgresText(step.sql), values: step.params });
          next = steps.next(step.mode === "get" ? result.rows[0] : step.mode === "all" ? result.rows : result.rowCount);
        }
        await client.query("COMMIT");
        return next.value;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async actor(secretHash) {
      const [row] = await rows<{ id: string; admin: boolean; revokedAt: string | null; expiresAt: string | null }>("actor", [secretHash]);
      if (!row || row.revokedAt !== null || (row.expiresAt !== null && new Date(iso(row.expiresAt)) <= new Date())) return undefined;
      return { id: row.id, admin: row.admin };
    },
    async grantView(actor, grantId) {
      const [row] = await rows<GrantViewRow>("grantView", scoped(actor, grantId));
      return row && grantViewRow(row);
    },
    async release(actor, releaseId) {
      const [row] = await rows<ReleaseRow>("release", scoped(actor, releaseId));
      return row && { ...row, createdAt: iso(row.createdAt), stateChangedAt: iso(row.stateChangedAt) };
    },
    async environmentName(actor, environmentId) {
      const [row] = await rows<{ name: string }>("environmentName", scoped(actor, environmentId));
      return row?.name;
    },
    async activeGrantViews(environmentId) {
      return (await rows<GrantViewRow>("activeGrantViews", [environmentId])).map(grantViewRow);
    },
    async activeGrantSummaries(environmentId) {
      return rows("activeGrantSummaries", [environmentId]);
    },
    async close() {
      await pool.end();
    },
  };
}
