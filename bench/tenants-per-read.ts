// `npx tsx bench/tenants-per-read.ts [sqlite|postgresql] [seconds] [other-build]`: the many-tenant
// data set, each read kind of its mix alone (its Zipf-drawn requests, 16 connections, no writes),
// against the floor and toolgate with the read cache off, and another build's `bin/toolgate.js` when
// given (a checkout of an earlier commit, built), in two interleaved rounds after a warm-up (read the second);
// then the whole mix the same way (KINDS=mix,grant-list… measures only those).
// Prints server CPU (and PostgreSQL CPU) per request, so that a change's effect on one read is seen
// without the mix's noise. Numbers for docs/performance.md's "per read" table.
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { startLoader } from "./loader.js";
import { startFloor, startToolgate, type RunningServer } from "./servers.js";
import { TENANT_REQUESTS } from "./tenants.js";
import { seedTenantsDatabase } from "./tenants-dataset.js";
import { TENANT_READ_MIX, tenantRequests } from "./tenants-requests.js";

const provider = (process.argv[2] ?? "postgresql") as DatabaseProvider;
const seconds = Number(process.argv[3] ?? 4);
const otherBuild = process.argv[4];
const scratch = await createScratchDatabase(provider);
const loader = startLoader();
try {
  const { seed } = await seedTenantsDatabase(scratch.url, provider);
  const requests = tenantRequests(seed, TENANT_REQUESTS);
  const postgresDatabase = provider === "postgresql" ? decodeURIComponent(new URL(scratch.url).pathname.slice(1)) : undefined;
  const servers: Record<string, RunningServer> = {
    floor: await startFloor(scratch.url),
    toolgate: await startToolgate(scratch.url, { TOOLGATE_READ_CACHE_MB: "0" }),
  };
  if (otherBuild) servers["other build"] = await startToolgate(scratch.url, { TOOLGATE_READ_CACHE_MB: "0" }, otherBuild);
  try {
    console.log("| read | round | server | req/s | CPU ms/req | db CPU ms/req |\n|---|---:|---|---:|---:|---:|");
    // Each kind alone, then the whole mix (KINDS=mix,grant-view… picks some).
    const kinds = [...TENANT_READ_MIX.map(({ kind }) => kind as string), "mix"].filter(
      (kind) => !process.env.KINDS || process.env.KINDS.split(",").includes(kind),
    );
    for (const kind of kinds) {
      const ofKind = kind === "mix" ? requests : requests.filter((request) => request.kind === kind);
      for (let round = 1; round <= 2; round++) {
        for (const [name, server] of Object.entries(servers)) {
          const result = await loader.run({
            url: server.url,
            pid: server.pid,
            requests: ofKind,
            connections: 16,
            durationSeconds: seconds,
            timeoutSeconds: 60,
            sharedSequence: true,
            sequenceStart: round * 1000,
            ...(postgresDatabase === undefined ? {} : { postgresDatabase }),
          });
          const cpu = result.cpuPerRequestMs?.toFixed(2) ?? "";
          console.log(
            `| ${kind} | ${round} | ${name} | ${result.requestsPerSecond.toFixed(0)} | ${cpu} | ${result.databaseCpuPerRequestMs?.toFixed(2) ?? ""} |`,
          );
        }
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
} finally {
  loader.close();
  await scratch.drop();
}
