// The floor's writes: granting a release to an environment (POST /v1/envs/{id}/tool-middlewares)
// and deleting a grant (DELETE /v1/environment-tool-middleware-grants/{id}), each one transaction
// of prepared statements doing what toolgate's domain does (src/domain/grants.ts createGrant,
// deleteGrant) and writing the change event as toolgate does (src/domain/event-streams.ts): the
// heads of the touched streams moved in one upsert, an id above them, the ChangeEvent row, and on
// PostgreSQL its NOTIFY. The rules are written once, as a generator of statements; each store runs
// it in its own transaction (synchronously on better-sqlite3, over a pooled client on PostgreSQL).
import { UUID, uuidv7, uuidv7obj } from "uuidv7";
import { CHANGE_CHANNEL } from "../../src/db/change-feed.js";
import { limitsOf } from "../../src/domain/plans.js";
import type { FloorActor, GrantRow, GrantViewRow } from "./store.js";

/** One statement of a write: its SQL with `?` placeholders, named for reuse; `get` one row, `all` rows, `run` the changed-row count. */
export interface Step {
  name: string;
  sql: string;
  params: unknown[];
  mode: "get" | "all" | "run";
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Steps<T> = Generator<Step, T, any>;

/** How a database stores what the writes bind and read back. */
export interface WriteDialect {
  postgres: boolean;
  bool(value: boolean): unknown;
  stamp(date: Date): unknown;
  /** A stored DateTime as toolgate's JSON writes it (`…Z`). */
  iso(stored: unknown): string;
}

export type WriteOutcome = { status: 200; view: GrantViewRow } | { status: 204 };

/** An apply's answer: the grant each creation resulted in, and the grants deleted. */
export interface ApplyOutcome {
  views: GrantViewRow[];
  deletedGrantIds: string[];
}

/** A refused write (the transaction rolls back): toolgate's status and error code. */
export class FloorRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

/** What toolgate stores as a grant event's state. */
type GrantState = GrantRow;

const GRANT_COLUMNS = `g."id", g."environmentId", g."releaseId", g."protected", g."automatic", g."followCoordinates", g."lifecycle",
  g."createdAt", g."createdById", g."stateChangedAt", g."stateChangedById"`;
const SHARE_COLUMNS = `s."accountId" AS "shareAccountId", s."role" AS "shareRole", s."acceptedAt" AS "shareAcceptedAt"`;
const GRANTABLE = `('published', 'superseded')`;

const SQL = {
  lock: `SELECT pg_advisory_xact_lock(hashtextextended(?, 0))`,
  environment: `SELECT e."ownerAccountId", e."versionCheck", o."plan", ${SHARE_COLUMNS}
    FROM "Environment" e JOIN "Account" o ON o."id" = e."ownerAccountId" LEFT JOIN "EnvironmentShare" s ON s."environmentId" = e."id"
    WHERE e."id" = ?`,
  release: `SELECT r."id", r."name", r."version", r."immutable", r."definition", r."metadataVersion", r."metadataDigest", r."sourceDigest",
    o."id" AS "ownerId", o."name" AS "ownerName", o."email" AS "ownerEmail"
    FROM "ToolRelease" r JOIN "Account" o ON o."id" = r."ownerAccountId" WHERE r."id" = ? AND r."lifecycle" IN ${GRANTABLE}`,
  existing: `SELECT ${GRANT_COLUMNS} FROM "Grant" g WHERE g."environmentId" = ? AND g."releaseId" = ?`,
  activeCount: `SELECT COUNT(*) AS "count" FROM "Grant" WHERE "environmentId" = ? AND "lifecycle" = 'active'`,
  insert: `INSERT INTO "Grant" ("id", "environmentId", "releaseId", "protected", "automatic", "followCoordinates", "lifecycle",
    "createdAt", "createdById", "stateChangedAt", "stateChangedById") VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)`,
  restore: `UPDATE "Grant" SET "automatic" = ?, "followCoordinates" = ?, "protected" = ?, "lifecycle" = 'active', "stateChangedAt" = ?, "stateChangedById" = ? WHERE "id" = ?`,
  flags: `UPDATE "Grant" SET "automatic" = ?, "followCoordinates" = ? WHERE "id" = ?`,
  toDelete: `SELECT ${GRANT_COLUMNS}, e."ownerAccountId", ${SHARE_COLUMNS}
    FROM "Grant" g JOIN "ToolRelease" r ON r."id" = g."releaseId" JOIN "Environment" e ON e."id" = g."environmentId"
    LEFT JOIN "EnvironmentShare" s ON s."environmentId" = e."id"
    WHERE g."id" = ? AND g."lifecycle" = 'active' AND r."lifecycle" IN ${GRANTABLE}`,
  softDelete: `UPDATE "Grant" SET "lifecycle" = 'deleted', "stateChangedAt" = ?, "stateChangedById" = ?
    WHERE "id" = ? AND "lifecycle" = 'active' AND "protected" = ?`,
  event: `INSERT INTO "ChangeEvent" ("id", "type", "occurredAt", "actorAccountId", "environmentId", "releaseId", "accountId", "state")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  notify: `SELECT pg_notify(?, ?)`,
};

const upsertHeadsSql = (pairs: number) =>
  `INSERT INTO "StreamHead" ("stream", "head") VALUES ${Array.from({ length: pairs }, () => "(?, ?)").join(", ")}
    ON CONFLICT ("stream") DO UPDATE SET "head" = CASE WHEN excluded."head" > "StreamHead"."head" THEN excluded."head" ELSE "StreamHead"."head" END
    RETURNING "stream", "head"`;
const setHeadsSql = (streams: number) => `UPDATE "StreamHead" SET "head" = ? WHERE "stream" IN (${Array.from({ length: streams }, () => "?").join(", ")})`;

const step = (name: keyof typeof SQL, params: unknown[], mode: Step["mode"]): Step => ({ name, sql: SQL[name], params, mode });
const truthy = (value: unknown) => value === true || value === 1;

interface ShareRow {
  shareAccountId: string | null;
  shareRole: string | null;
  shareAcceptedAt: unknown;
}

/** roleIn (src/domain/permissions/roles.ts): admins and the owner own; an accepted share gives its role. */
function roleOf(actor: FloorActor, ownerAccountId: string, rows: ShareRow[]): "owner" | "deployer" | "viewer" | undefined {
  if (actor.admin || ownerAccountId === actor.id) return "owner";
  const share = rows.find((row) => row.shareAccountId === actor.id && row.shareAcceptedAt !== null);
  if (!share) return undefined;
  return share.shareRole === "deployer" ? "deployer" : "viewer";
}

function grantState(d: WriteDialect, raw: Record<string, unknown>): GrantState {
  return {
    id: raw.id as string,
    environmentId: raw.environmentId as string,
    releaseId: raw.releaseId as string,
    protected: truthy(raw.protected),
    automatic: truthy(raw.automatic),
    followCoordinates: truthy(raw.followCoordinates),
    lifecycle: raw.lifecycle as string,
    createdAt: d.iso(raw.createdAt),
    createdById: raw.createdById as string,
    stateChangedAt: d.iso(raw.stateChangedAt),
    stateChangedById: raw.stateChangedById as string,
  };
}

/** A UUID v7 one millisecond after `id` (toolgate's successorsOf for one id). */
function successorOf(id: string): string {
  const millis =
    UUID.parse(id)
      .bytes.slice(0, 6)
      .reduce((value, byte) => value * 256 + byte, 0) + 1;
  const bytes = Uint8Array.from(uuidv7obj().bytes);
  for (let position = 5, rest = millis; position >= 0; position -= 1, rest = Math.floor(rest / 256)) bytes[position] = rest % 256;
  bytes[6] = 0x70;
  bytes[7] = 0;
  return UUID.ofInner(bytes).toString();
}

interface FloorEvent {
  type: string;
  occurredAt: Date;
  actorAccountId: string;
  environmentId: string;
  releaseId: string;
  accountId: string;
  state: GrantState;
}

/** flushEvents for one event: the streams' heads (sorted, one upsert), an id above them, the row, the notice. */
function* recordEvent(d: WriteDialect, event: FloorEvent, audience: Iterable<string>): Steps<string> {
  const streams = new Set([`account:${event.accountId}`, `environment:${event.environmentId}`, `account:${event.actorAccountId}`]);
  for (const account of audience) streams.add(`account:${account}`);
  const sorted = [...streams].sort();
  let id = uuidv7obj().toString();
  const heads = (yield {
    name: `heads${sorted.length}`,
    sql: upsertHeadsSql(sorted.length),
    params: sorted.flatMap((stream) => [stream, id]),
    mode: "all",
  }) as Array<{ head: string }>;
  const newest = heads.reduce((max, { head }) => (head > max ? head : max), id);
  if (newest !== id) {
    id = successorOf(newest);
    yield { name: `setHeads${sorted.length}`, sql: setHeadsSql(sorted.length), params: [id, ...sorted], mode: "run" };
  }
  const state = JSON.stringify(event.state);
  yield step("event", [id, event.type, d.stamp(event.occurredAt), event.actorAccountId, event.environmentId, event.releaseId, event.accountId, state], "run");
  if (d.postgres) {
    const notice = JSON.stringify({ id, type: event.type, environmentId: event.environmentId, accountId: event.accountId });
    yield step("notify", [CHANGE_CHANNEL, notice], "get");
  }
  return id;
}

/** createGrant + grantRelease for a ById selector. */
export function* createGrantSteps(d: WriteDialect, actor: FloorActor, environmentId: string, releaseId: string, automatic: boolean): Steps<WriteOutcome> {
  if (d.postgres) yield step("lock", [`toolgate:environment:${environmentId}`], "get");
  const environment = (yield step("environment", [environmentId], "all")) as Array<ShareRow & { ownerAccountId: string; versionCheck: unknown; plan: string }>;
  const first = environment[0];
  const role = first && roleOf(actor, first.ownerAccountId, environment);
  if (!first || !role) throw new FloorRefusal(404, "ENVIRONMENT_NOT_FOUND");
  if (role === "viewer") throw new FloorRefusal(403, "AUTH_FORBIDDEN");
  const release = (yield step("release", [releaseId], "get")) as
    | (Omit<GrantViewRow, "releaseName" | "releaseVersion"> & { name: string; version: string; immutable: unknown })
    | undefined;
  if (!release) throw new FloorRefusal(404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
  if (truthy(first.versionCheck) && !truthy(release.immutable)) throw new FloorRefusal(409, "TOOL_RELEASE_IMMUTABLE_CONFLICT");
  const existingRaw = (yield step("existing", [environmentId, releaseId], "get")) as Record<string, unknown> | undefined;
  const existing = existingRaw && grantState(d, existingRaw);
  const now = new Date();
  const at = now.toISOString();
  let grant: GrantState;
  let type: string | undefined = "grant-created";
  if (!existing || existing.lifecycle === "deleted") {
    const limit = limitsOf(first.plan).activeGrantsPerEnvironment;
    if (limit !== null) {
      const { count } = (yield step("activeCount", [environmentId], "get")) as { count: number | string };
      if (Number(count) >= limit) throw new FloorRefusal(422, "LIMIT_EXCEEDED");
    }
    if (!existing) {
      grant = {
        id: uuidv7(),
        environmentId,
        releaseId,
        protected: false,
        automatic,
        followCoordinates: false,
        lifecycle: "active",
        createdAt: at,
        createdById: actor.id,
        stateChangedAt: at,
        stateChangedById: actor.id,
      };
      yield step(
        "insert",
        [grant.id, environmentId, releaseId, d.bool(false), d.bool(automatic), d.bool(false), d.stamp(now), actor.id, d.stamp(now), actor.id],
        "run",
      );
    } else {
      grant = { ...existing, protected: false, automatic, followCoordinates: false, lifecycle: "active", stateChangedAt: at, stateChangedById: actor.id };
      yield step("restore", [d.bool(automatic), d.bool(false), d.bool(false), d.stamp(now), actor.id, existing.id], "run");
    }
  } else if (existing.protected || (automatic && !existing.automatic) || (existing.automatic === automatic && !existing.followCoordinates)) {
    grant = existing;
    type = undefined;
  } else {
    grant = { ...existing, automatic, followCoordinates: false };
    yield step("flags", [d.bool(automatic), d.bool(false), existing.id], "run");
    type = "grant-flags-changed";
  }
  if (type) {
    const audience = [first.ownerAccountId, ...environment.flatMap((row) => (row.shareAccountId ? [row.shareAccountId] : []))];
    yield* recordEvent(
      d,
      { type, occurredAt: now, actorAccountId: actor.id, environmentId, releaseId, accountId: first.ownerAccountId, state: grant },
      audience,
    );
  }
  return {
    status: 200,
    view: {
      ...grant,
      releaseName: release.name,
      releaseVersion: release.version,
      definition: release.definition,
      metadataVersion: release.metadataVersion,
      metadataDigest: release.metadataDigest,
      sourceDigest: release.sourceDigest,
      ownerId: release.ownerId,
      ownerName: release.ownerName,
      ownerEmail: release.ownerEmail,
    },
  };
}

/** deleteGrant (a person's deletion): the visible active grant, the deployer check, the conditional update. */
export function* deleteGrantSteps(d: WriteDialect, actor: FloorActor, grantId: string, automaticOnly = false): Steps<WriteOutcome> {
  const rows = (yield step("toDelete", [grantId], "all")) as Array<ShareRow & Record<string, unknown> & { ownerAccountId: string }>;
  const first = rows[0];
  const role = first && roleOf(actor, first.ownerAccountId, rows);
  // A reconciliation deletes only automatic grants (checkConsequences).
  if (!first || !role || (automaticOnly && !truthy(first.automatic))) throw new FloorRefusal(404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  if (role === "viewer" || truthy(first.protected)) throw new FloorRefusal(403, "AUTH_FORBIDDEN");
  const now = new Date();
  const changed = (yield step("softDelete", [d.stamp(now), actor.id, grantId, d.bool(false)], "run")) as number;
  if (changed !== 1) throw new FloorRefusal(409, "CONCURRENT_UPDATE");
  const grant: GrantState = { ...grantState(d, first), lifecycle: "deleted", stateChangedAt: now.toISOString(), stateChangedById: actor.id };
  const audience = [first.ownerAccountId, ...rows.flatMap((row) => (row.shareAccountId ? [row.shareAccountId] : []))];
  yield* recordEvent(
    d,
    {
      type: "grant-deleted",
      occurredAt: now,
      actorAccountId: actor.id,
      environmentId: grant.environmentId,
      releaseId: grant.releaseId,
      accountId: first.ownerAccountId,
      state: grant,
    },
    audience,
  );
  return { status: 204 };
}

/**
 * applyChanges for a grant reconciliation without publications: every creation, then every deletion,
 * in one transaction (the store's), each with its event; only automatic grants are deleted. A refusal
 * of any rolls back all.
 */
export function* applySteps(
  d: WriteDialect,
  actor: FloorActor,
  environmentId: string,
  creations: ReadonlyArray<{ releaseId: string; automatic: boolean }>,
  deletions: readonly string[],
): Steps<ApplyOutcome> {
  const views: GrantViewRow[] = [];
  for (const creation of creations) {
    const outcome = yield* createGrantSteps(d, actor, environmentId, creation.releaseId, creation.automatic);
    if (outcome.status === 200) views.push(outcome.view);
  }
  for (const grantId of deletions) yield* deleteGrantSteps(d, actor, grantId, true);
  return { views, deletedGrantIds: [...deletions] };
}
