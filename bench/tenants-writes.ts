// The many-tenant scenario's writes, sent by the harness (not the load generator) while the reads
// run: at a fixed rate, alternately a grant of an account's spare release to one of its environments
// (POST /v1/envs/{id}/tool-middlewares) and the deletion of a grant made before (DELETE
// /v1/environment-tool-middleware-grants/{id}), each with the account's token. Every write is one
// committed change, so one change of the data version. The read keys never change: the spare
// release is granted nowhere else, and each environment holds at most one such grant at a time.
import { prng } from "./tenants-requests.js";
import type { TenantsSeed } from "./tenants-dataset.js";

export interface WriteCounts {
  /** Writes answered 2xx. */
  writes: number;
  /** Writes answered otherwise, or not at all. */
  errors: number;
  /** Ticks skipped because every environment was busy (never expected). */
  skipped: number;
  /** First error messages, for the log. */
  firstErrors: string[];
}

export interface WriteLoad {
  /** Stops the ticks, waits for writes in flight, deletes the grants still made; answers the counts of the run. */
  stop(): Promise<WriteCounts>;
}

interface Made {
  grantId: string;
  environmentId: string;
  account: number;
}

/** Writes at `perSecond` to the toolgate at `url` until stopped; 0: none. */
export function startWrites(url: string, seed: TenantsSeed, perSecond: number, seedValue = 12): WriteLoad {
  const random = prng(seedValue);
  const counts: WriteCounts = { writes: 0, errors: 0, skipped: 0, firstErrors: [] };
  const busy = new Set<string>();
  const made: Made[] = [];
  const inFlight = new Set<Promise<void>>();
  let tick = 0;

  const send = async (method: "POST" | "DELETE", path: string, account: number, body?: unknown): Promise<unknown> => {
    const response = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${seed.accounts[account]!.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return text === "" ? undefined : JSON.parse(text);
  };
  const counted = (work: Promise<void>) => {
    const tracked = work.then(
      () => void (counts.writes += 1),
      (error: unknown) => {
        counts.errors += 1;
        if (counts.firstErrors.length < 3) counts.firstErrors.push(String(error));
      },
    );
    inFlight.add(tracked);
    void tracked.finally(() => inFlight.delete(tracked));
  };
  const create = () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const account = Math.floor(random() * seed.accounts.length);
      const { environmentIds, spareReleaseId } = seed.accounts[account]!;
      const environmentId = environmentIds[Math.floor(random() * environmentIds.length)]!;
      if (busy.has(environmentId)) continue;
      busy.add(environmentId);
      const body = { release: { type: "ById", releaseId: spareReleaseId }, automatic: false };
      counted(
        send("POST", `/v1/envs/${environmentId}/tool-middlewares`, account, body).then(
          (view) => void made.push({ grantId: (view as { grant: { id: string } }).grant.id, environmentId, account }),
          (error: unknown) => {
            busy.delete(environmentId);
            throw error;
          },
        ),
      );
      return;
    }
    counts.skipped += 1;
  };
  const remove = (grant: Made) =>
    counted(
      send("DELETE", `/v1/environment-tool-middleware-grants/${grant.grantId}`, grant.account).then(
        () => void busy.delete(grant.environmentId),
        (error: unknown) => {
          busy.delete(grant.environmentId);
          throw error;
        },
      ),
    );

  const timer =
    perSecond > 0
      ? setInterval(() => {
          tick += 1;
          // Odd ticks create, even ticks delete the oldest grant made (or create when none is made yet).
          const oldest = tick % 2 === 0 ? made.shift() : undefined;
          if (oldest) remove(oldest);
          else create();
        }, 1000 / perSecond)
      : undefined;

  return {
    async stop() {
      clearInterval(timer);
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      const result = { ...counts, firstErrors: [...counts.firstErrors] };
      // Leave the data set as seeded: the grants still made are deleted, not counted.
      await Promise.all(
        made.splice(0).map((grant) => send("DELETE", `/v1/environment-tool-middleware-grants/${grant.grantId}`, grant.account).catch(() => {})),
      );
      busy.clear();
      return result;
    },
  };
}
