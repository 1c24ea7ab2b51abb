// Whether live subscribers may still receive a stream's events: their tokens read again from the
// database (revoked? expired?) and their accounts' access to the stream decided again, for all of a
// stream's subscribers at once, so the cost is the same for one subscriber as for a thousand.
import type { Db } from "../db/client.js";
import type { Actor } from "./actor.js";
import type { EventStream } from "./events.js";
import { actorsWhoSeeEnvironment, canSeeAccount } from "./permissions/index.js";
import { tokenRejection } from "./tokens.js";

/** The hashes, among `secretHashes`, of the tokens that still authenticate an account allowed to see `stream`. */
export async function tokensStillAllowed(db: Db, stream: EventStream, secretHashes: readonly string[], now = new Date()): Promise<Set<string>> {
  if (secretHashes.length === 0) return new Set();
  const tokens = await db.apiToken.findMany({
    where: { secretHash: { in: [...secretHashes] } },
    select: { secretHash: true, revokedAt: true, expiresAt: true, account: true },
  });
  const valid = tokens.filter((token) => tokenRejection(token, now) === null);
  const allowed = await actorsWhoSeeStream(
    db,
    stream,
    valid.map((token) => token.account),
  );
  return new Set(valid.filter((token) => allowed.has(token.account.id)).map((token) => token.secretHash));
}

async function actorsWhoSeeStream(db: Db, stream: EventStream, actors: Actor[]): Promise<Set<string>> {
  if (actors.length === 0) return new Set();
  if ("environmentId" in stream) return actorsWhoSeeEnvironment(db, actors, stream.environmentId);
  return new Set(actors.filter((actor) => canSeeAccount(actor, stream.accountId)).map((actor) => actor.id));
}
