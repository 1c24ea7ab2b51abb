// Tells live subscribers that change events were committed, whichever replica committed them.
// PostgreSQL: the appending transaction runs NOTIFY on CHANGE_CHANNEL (delivered only on commit, to
// every connection listening), and each replica keeps one dedicated connection that LISTENs.
// SQLite: one process owns the file, so commits are announced in process.
// A notice only says "read the table": each stream's reader reads events from the table after the
// last id it handed out, so a notice lost while the listening connection was down costs nothing but
// latency (a reconnect announces "resync", and every reader reads again).
import { EventEmitter } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import type { Logger } from "pino";
import type { Database } from "./client.js";
import { providerOf } from "./database-url.js";

/** The PostgreSQL channel a committed event is announced on; the payload is a ChangeNotice as JSON. */
export const CHANGE_CHANNEL = "toolgate_change_events";

/** What a notification says about a committed event: enough to decide who must read it. */
export interface ChangeNotice {
  id: string;
  type: string;
  environmentId: string | null;
  accountId: string;
}

/** A committed event, or "resync" (notices may have been missed: read again), or "closed" (the service stops). */
export type FeedSignal = ChangeNotice | "resync" | "closed";

export interface ChangeFeed {
  /** Listeners: the live events' router (src/graphql/live-events/live-events.ts) and the webhook sender (src/webhooks/delivery-worker.ts). */
  subscribe(listener: (signal: FeedSignal) => void): () => void;
  close(): Promise<void>;
}

const inProcess = new EventEmitter().setMaxListeners(0);

/** SQLite: called once the appending transaction has committed. */
export function announceInProcess(notice: ChangeNotice): void {
  inProcess.emit("notice", notice);
}

const feeds = new WeakMap<Database, ChangeFeed>();

/** The feed started for `db` by the service; without one (an app built in a test), in-process notices only. */
export function changeFeedOf(db: Database): ChangeFeed {
  let feed = feeds.get(db);
  if (!feed) {
    feed = inProcessFeed();
    feeds.set(db, feed);
  }
  return feed;
}

const RECONNECT_BACKOFF_MS = { first: 100, max: 5000 };

/** Starts listening for `db` (a PostgreSQL connection of its own, or in process on SQLite). */
export async function startChangeFeed(db: Database, databaseUrl: string, logger: Logger): Promise<ChangeFeed> {
  const feed = providerOf(databaseUrl) === "postgresql" ? await postgresFeed(databaseUrl, logger) : inProcessFeed();
  feeds.set(db, feed);
  return feed;
}

function broadcaster() {
  const emitter = new EventEmitter().setMaxListeners(0);
  return {
    emit: (signal: FeedSignal) => emitter.emit("signal", signal),
    subscribe: (listener: (signal: FeedSignal) => void) => {
      emitter.on("signal", listener);
      return () => void emitter.off("signal", listener);
    },
  };
}

function inProcessFeed(): ChangeFeed {
  const { emit, subscribe } = broadcaster();
  inProcess.on("notice", emit);
  return {
    subscribe,
    close: async () => {
      inProcess.off("notice", emit);
      emit("closed");
    },
  };
}

async function postgresFeed(databaseUrl: string, logger: Logger): Promise<ChangeFeed> {
  const { emit, subscribe } = broadcaster();
  let closed = false;
  let client: pg.Client | undefined;
  let reconnecting = false;

  const connect = async (): Promise<pg.Client> => {
    const listener = new pg.Client({ connectionString: databaseUrl, keepAlive: true, connectionTimeoutMillis: 5000 });
    listener.on("notification", (message) => {
      if (message.channel !== CHANGE_CHANNEL || !message.payload) return;
      try {
        emit(JSON.parse(message.payload) as ChangeNotice);
      } catch {
        emit("resync");
      }
    });
    listener.on("error", (error) => {
      logger.warn({ err: error }, "change feed: listening connection failed; reconnecting");
      void listener.end().catch(() => {});
    });
    listener.on("end", () => {
      if (!closed) void reconnect();
    });
    await listener.connect();
    await listener.query(`LISTEN ${CHANGE_CHANNEL}`);
    return listener;
  };

  const reconnect = async () => {
    if (reconnecting) return;
    reconnecting = true;
    for (let wait = RECONNECT_BACKOFF_MS.first; !closed; wait = Math.min(wait * 2, RECONNECT_BACKOFF_MS.max)) {
      await sleep(wait);
      try {
        client = await connect();
        // Notices sent while no connection listened are lost: subscribers read the table again.
        emit("resync");
        break;
      } catch (error) {
        logger.warn({ err: error }, "change feed: reconnecting failed");
      }
    }
    reconnecting = false;
  };

  client = await connect();
  return {
    subscribe,
    close: async () => {
      closed = true;
      emit("closed");
      await client?.end().catch(() => {});
    },
  };
}
