// TOOLGATE_EVENT_RETENTION_DAYS: change events older than the retention are deleted at start and
// then hourly. Every replica prunes; deleting what another replica deleted already is harmless.
import type { Logger } from "pino";
import type { Database } from "../db/client.js";
import { pruneEventsBefore } from "./events.js";

const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the events that occurred more than `retentionDays` before `now`. The database deletes their
 * webhook deliveries (with their attempts) with them: the delivery log is kept as long as the events.
 * Returns how many events.
 */
export async function pruneExpiredEvents(db: Database, retentionDays: number, now = new Date()): Promise<number> {
  return pruneEventsBefore(db, new Date(now.getTime() - retentionDays * DAY_MS));
}

/** Starts pruning (nothing when `retentionDays` is undefined); the returned function stops it. */
export function startEventRetention(db: Database, retentionDays: number | undefined, logger: Logger): () => void {
  if (retentionDays === undefined) return () => {};
  const prune = async () => {
    try {
      const deleted = await pruneExpiredEvents(db, retentionDays);
      if (deleted > 0) logger.info({ deleted, retentionDays }, "pruned change events past their retention");
    } catch (error) {
      logger.warn({ err: error }, "pruning change events failed; trying again in an hour");
    }
  };
  void prune();
  const timer = setInterval(() => void prune(), PRUNE_INTERVAL_MS).unref();
  return () => clearInterval(timer);
}
