// Where a transaction's change events go when it is about to commit. Every event belongs to an
// account's stream (the owner of what changed) and, for environment changes, to that environment's;
// readers page each stream by id. A writer locks the heads of the streams its events touch (one row
// per stream in StreamHead) and issues ids above every head, so within a stream id order is commit
// order, without a lock that writers of unrelated accounts would share.
//
// The heads it touches are also those of every account whose view the change may alter (the
// audience): the environment's owner and the accounts it is shared with, and, for a release's own
// transitions, the owners and sharers of the environments that grant it. An account's head thus
// moves exactly when something it can read may have changed, which is what the read cache checks.
import { UUID, uuidv7obj } from "uuidv7";
import type { Db } from "../db/client.js";
import { providerOfClient } from "../db/client.js";
import { afterCommit } from "../db/after-commit.js";
import { announceInProcess, CHANGE_CHANNEL, type ChangeNotice } from "../db/change-feed.js";
import { ACCOUNT_STREAM_PREFIX, accountStream, environmentStream, SYSTEM_STREAM } from "../db/stream-heads.js";

/** An event as it will be stored, but for its id. */
export interface PendingEvent {
  type: string;
  occurredAt: Date;
  actorAccountId: string | null;
  environmentId: string | null;
  releaseId: string | null;
  accountId: string;
  state: string;
}

const buffers = new WeakMap<object, PendingEvent[]>();

/** Starts collecting the events of a write transaction (writeTransaction calls it). */
export function openEventBuffer(tx: Db): void {
  buffers.set(tx, []);
}

export function bufferEvent(tx: Db, event: PendingEvent): void {
  const buffer = buffers.get(tx);
  if (!buffer) throw new Error(`appendEvent(${event.type}): not inside writeTransaction, where events are written before commit`);
  buffer.push(event);
}

const EVENT_COLUMN_LIST = ["id", "type", "occurredAt", "actorAccountId", "environmentId", "releaseId", "accountId", "state"] as const;
const EVENT_COLUMNS = EVENT_COLUMN_LIST.map((column) => `"${column}"`).join(", ");
/** The columns as json_to_recordset reads them: text, but for the timestamp. */
const EVENT_COLUMN_TYPES = EVENT_COLUMN_LIST.map((column) => `"${column}" ${column === "occurredAt" ? "timestamp(3)" : "text"}`).join(", ");

/** Writes the transaction's events, last thing before it commits. */
export async function flushEvents(tx: Db): Promise<void> {
  const events = buffers.get(tx) ?? [];
  buffers.delete(tx);
  if (events.length === 0) return;
  const sql = dialectOf(tx);
  const fresh = events.map(() => uuidv7obj().toString());
  if (sql.postgres) {
    const heads = await moveHeadsAndStore(tx, sql, events, fresh);
    const newest = newestHead(heads, fresh);
    // A head above our clock's ids (another replica's clock runs ahead): nothing was stored.
    if (newest !== undefined) await storeEvents(tx, events, await moveHeadsAfter(tx, sql, heads, newest, events.length));
    return;
  }
  const upsert = headsUpsert(sql, events, last(fresh));
  const heads = await tx.$queryRawUnsafe<StoredHead[]>(upsert.text, ...upsert.args);
  const newest = newestHead(heads, fresh);
  const ids = newest === undefined ? fresh : await moveHeadsAfter(tx, sql, heads, newest, events.length);
  const rows = withIds(events, ids);
  // Raw rather than createMany, whose query plan Prisma compiles again on every call (it caches no
  // createMany plan). occurredAt as Prisma's SQLite adapter stores a DateTime: ISO text, +00:00.
  await tx.$executeRawUnsafe(
    `INSERT INTO "ChangeEvent" (${EVENT_COLUMNS}) SELECT ${EVENT_COLUMN_LIST.map((column) => `json_extract("value", '$.${column}')`).join(", ")} FROM json_each(?)`,
    JSON.stringify(rows.map((row) => ({ ...row, occurredAt: row.occurredAt.toISOString().replace(/Z$/, "+00:00") }))),
  );
  afterCommit(tx, () => noticesOf(rows).forEach(announceInProcess));
}

type StoredHead = { stream: string; head: string };
type StoredEvent = PendingEvent & { id: string };

const last = (ids: readonly string[]) => ids[ids.length - 1]!;
const withIds = (events: readonly PendingEvent[], ids: readonly string[]): StoredEvent[] => events.map((event, index) => ({ ...event, id: ids[index]! }));
const noticesOf = (rows: readonly StoredEvent[]): ChangeNotice[] =>
  rows.map(({ id, type, environmentId, accountId }) => ({ id, type, environmentId, accountId }));

/** The newest of the heads when one is above the last of `ids`, else undefined (the heads now point at it). */
function newestHead(heads: readonly StoredHead[], ids: readonly string[]): string | undefined {
  const ours = last(ids);
  const newest = heads.reduce((max, { head }) => (head > max ? head : max), ours);
  return newest === ours ? undefined : newest;
}

/** The rows as json_to_recordset reads them, and each notice as the JSON text pg_notify sends. */
const storedArgs = (rows: readonly StoredEvent[]) => [
  JSON.stringify(rows),
  CHANGE_CHANNEL,
  JSON.stringify(noticesOf(rows).map((notice) => JSON.stringify(notice))),
];

/**
 * Moves the heads to the last of `ids` and, unless a head was newer, stores the events with those
 * ids and their NOTIFY (transactional: it reaches every replica only if the transaction commits),
 * in one statement. Answers the heads as they now are.
 */
async function moveHeadsAndStore(tx: Db, sql: Dialect, events: readonly PendingEvent[], ids: readonly string[]): Promise<StoredHead[]> {
  const upsert = headsUpsert(sql, events, last(ids));
  const stored = storedArgs(withIds(events, ids));
  const at = (offset: number) => `$${upsert.args.length + offset + 1}`;
  const ourHeads = `NOT EXISTS (SELECT 1 FROM "heads" WHERE "head" <> ${at(0)}::text)`;
  // The final SELECT reads "notified", so the notices are sent; data-modifying parts run anyway.
  return tx.$queryRawUnsafe<StoredHead[]>(
    `WITH "heads" AS (${upsert.text}),
     ${storedAndNotified(at(1), at(2), at(3), `WHERE ${ourHeads}`)}
     SELECT "stream", "head" FROM "heads" WHERE (SELECT count(*) FROM "notified") >= 0`,
    ...upsert.args,
    last(ids),
    ...stored,
  );
}

/** The events with `ids` and their NOTIFY, in one statement (PostgreSQL). */
async function storeEvents(tx: Db, events: readonly PendingEvent[], ids: readonly string[]): Promise<void> {
  // occurredAt's ISO text ends in Z, which a timestamp column ignores: the stored value is the UTC time, as Prisma stores it.
  await tx.$executeRawUnsafe(`WITH ${storedAndNotified("$1", "$2", "$3", "")} SELECT count(*) FROM "notified"`, ...storedArgs(withIds(events, ids)));
}

/**
 * The CTEs "stored" (the events' rows, from the JSON parameter `rows`) and "notified" (each notice
 * of the JSON array parameter `notices` sent on `channel`), both under `condition` when one is given.
 */
function storedAndNotified(rows: string, channel: string, notices: string, condition: string): string {
  return `"stored" AS (INSERT INTO "ChangeEvent" (${EVENT_COLUMNS}) SELECT ${EVENT_COLUMNS} FROM json_to_recordset(${rows}::json) AS "event"(${EVENT_COLUMN_TYPES}) ${condition}),
     "notified" AS (SELECT pg_notify(${channel}, "notice") FROM json_array_elements_text(${notices}::json) AS "notice" ${condition})`;
}

/** Moves the system stream's head (retention deleted events): every kept answer is re-checked. */
export async function touchSystemStream(db: Db): Promise<void> {
  const upsert = new Statement(dialectOf(db));
  await db.$executeRawUnsafe(
    `INSERT INTO "StreamHead" ("stream", "head") VALUES (${upsert.bind(SYSTEM_STREAM)}, ${upsert.bind(uuidv7obj().toString())}) ${KEEP_NEWER_HEAD}`,
    ...upsert.args,
  );
}

interface Dialect {
  postgres: boolean;
  /** The placeholder of the text parameter at `index` (from 0); SQLite binds `?` in order of appearance. */
  parameter(index: number): string;
}

function dialectOf(db: Db): Dialect {
  const postgres = providerOfClient(db) === "postgresql";
  return { postgres, parameter: postgres ? (index) => `$${index + 1}::text` : () => "?" };
}

/** Builds a statement's text and its arguments together, so that placeholders follow their order of appearance. */
class Statement {
  readonly args: string[] = [];
  constructor(private readonly sql: Dialect) {}

  bind(value: string): string {
    this.args.push(value);
    return this.sql.parameter(this.args.length - 1);
  }

  list(values: readonly string[]): string {
    return values.map((value) => this.bind(value)).join(", ");
  }
}

/**
 * The streams `events` touch, as a query of "stream" rows: each event's account and environment,
 * its actor's account, and its audience (see the header): the environments' owners and sharers,
 * and for a release's own transitions, the owners and sharers of the environments granting it.
 */
function touchedStreams(statement: Statement, events: readonly PendingEvent[]): string {
  const own = new Set<string>();
  for (const event of events) {
    own.add(accountStream(event.accountId));
    if (event.environmentId) own.add(environmentStream(event.environmentId));
    if (event.actorAccountId) own.add(accountStream(event.actorAccountId));
  }
  const environments = [...new Set(events.flatMap((event) => (event.environmentId ? [event.environmentId] : [])))];
  const releases = [...new Set(events.flatMap((event) => (event.releaseId && event.type.startsWith("release-") ? [event.releaseId] : [])))];
  const parts = [...own].map((stream) => `SELECT ${statement.bind(stream)} AS "stream"`);
  const account = (column: string) => `'${ACCOUNT_STREAM_PREFIX}' || ${column} AS "stream"`;
  if (environments.length > 0) {
    parts.push(`SELECT ${account(`"ownerAccountId"`)} FROM "Environment" WHERE "id" IN (${statement.list(environments)})`);
    parts.push(`SELECT ${account(`"accountId"`)} FROM "EnvironmentShare" WHERE "environmentId" IN (${statement.list(environments)})`);
  }
  if (releases.length > 0) {
    parts.push(
      `SELECT ${account(`e."ownerAccountId"`)} FROM "Grant" g JOIN "Environment" e ON e."id" = g."environmentId" WHERE g."releaseId" IN (${statement.list(releases)})`,
    );
    parts.push(
      `SELECT ${account(`s."accountId"`)} FROM "Grant" g JOIN "EnvironmentShare" s ON s."environmentId" = g."environmentId" WHERE g."releaseId" IN (${statement.list(releases)})`,
    );
  }
  return parts.join(" UNION ");
}

/**
 * The upsert that moves the heads of the streams `events` touch to `head`, in sorted order (so two
 * writers lock shared heads in one order), holding them until commit, and answers them as they now are.
 */
function headsUpsert(sql: Dialect, events: readonly PendingEvent[], head: string): { text: string; args: string[] } {
  const upsert = new Statement(sql);
  const bound = upsert.bind(head);
  // `WHERE true` tells SQLite's parser that ON CONFLICT belongs to the INSERT, not to a join.
  const text = `INSERT INTO "StreamHead" ("stream", "head") SELECT "stream", ${bound} FROM (${touchedStreams(upsert, events)}) AS "touched" WHERE true ORDER BY "stream"
    ${KEEP_NEWER_HEAD} RETURNING "stream", "head"`;
  return { text, args: upsert.args };
}

/** `count` ids after `newest`, to which the heads are then moved. */
async function moveHeadsAfter(tx: Db, sql: Dialect, heads: readonly StoredHead[], newest: string, count: number): Promise<string[]> {
  const ids = successorsOf(newest, count).map(String);
  const update = new Statement(sql);
  const moved = update.bind(last(ids));
  await tx.$executeRawUnsafe(`UPDATE "StreamHead" SET "head" = ${moved} WHERE "stream" IN (${update.list(heads.map((row) => row.stream))})`, ...update.args);
  return ids;
}

/** An upsert's conflict clause: a head only moves forward. */
const KEEP_NEWER_HEAD = `ON CONFLICT ("stream") DO UPDATE SET "head" = CASE WHEN excluded."head" > "StreamHead"."head" THEN excluded."head" ELSE "StreamHead"."head" END`;

const IDS_PER_MILLISECOND = 4096;

/** `count` UUID v7 ids after `id`, in order: from one millisecond later, the random rest of fresh ids kept. */
function successorsOf(id: string, count: number): UUID[] {
  const after =
    UUID.parse(id)
      .bytes.slice(0, 6)
      .reduce((value, byte) => value * 256 + byte, 0) + 1;
  return Array.from({ length: count }, (_, index) => {
    const bytes = Uint8Array.from(uuidv7obj().bytes);
    const millis = after + Math.floor(index / IDS_PER_MILLISECOND);
    for (let position = 5, rest = millis; position >= 0; position -= 1, rest = Math.floor(rest / 256)) bytes[position] = rest % 256;
    // The 12 bits after the version nibble order the ids within their millisecond.
    const within = index % IDS_PER_MILLISECOND;
    bytes[6] = 0x70 | (within >> 8);
    bytes[7] = within & 0xff;
    return UUID.ofInner(bytes);
  });
}
