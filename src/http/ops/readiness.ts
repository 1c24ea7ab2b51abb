// /readyz: ready while the service is not shutting down and its database answers, within a bound.
import type { Database } from "../../db/client.js";

/** /readyz answers within this even when the database hangs (a partition): load balancers time out too. */
const READINESS_PING_TIMEOUT_MS = 1500;

export function readiness(db: Database, isReady: () => boolean): () => Promise<Response> {
  return async () => {
    if (!isReady()) return Response.json({ status: "shutting-down" }, { status: 503 });
    return (await answersWithin(db.$queryRawUnsafe("SELECT 1"), READINESS_PING_TIMEOUT_MS))
      ? Response.json({ status: "ready" })
      : Response.json({ status: "database-unavailable" }, { status: 503 });
  };
}

/** Whether `ping` succeeds before `timeoutMs`; a failure or a hang is "no". */
async function answersWithin(ping: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      ping.then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
