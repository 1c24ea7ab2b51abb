// `npx tsx bench/tenants-ab.ts <other-build> [sqlite|postgresql] [rounds]`: this build against another
// build's `bin/toolgate.js` (a checkout of an earlier commit, built) on the many-tenant data set,
// read cache off (READ_CACHE_MB=8, say, for both as shipped), both loaded at the same time: each server has a load worker of its own sending the
// same requests over 8 connections, for 3 s per round. On a shared VM whose speed swings by 2× within
// a minute, interleaved runs compare one moment with another; runs side by side meet the same
// moments, so the per-round ratio of CPU per request holds still where the times do not. Prints, per
// read kind of the mix and for the mix itself, each round's ratio (this build's CPU per request over
// the other's) and their median, then both servers' RSS. Numbers for docs/performance.md's "what each change bought".
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { startLoader } from "./loader.js";
import { rssBytes } from "./proc.js";
import { startToolgate } from "./servers.js";
import { TENANT_REQUESTS } from "./tenants.js";
import { seedTenantsDatabase } from "./tenants-dataset.js";
import { TENANT_READ_MIX, tenantRequests, type TenantRequest } from "./tenants-requests.js";

const [otherBuild, provider = "postgresql", rounds = "6"] = process.argv.slice(2) as [string | undefined, DatabaseProvider | undefined, string | undefined];
if (!otherBuild) throw new Error("usage: npx tsx bench/tenants-ab.ts <other build's bin/toolgate.js> [sqlite|postgresql] [rounds]");

const scratch = await createScratchDatabase(provider);
const loaders = [startLoader(), startLoader()];
try {
  const { seed } = await seedTenantsDatabase(scratch.url, provider);
  const requests = tenantRequests(seed, TENANT_REQUESTS);
  const readCache = { TOOLGATE_READ_CACHE_MB: process.env.READ_CACHE_MB ?? "0" };
  const servers = [await startToolgate(scratch.url, readCache), await startToolgate(scratch.url, readCache, otherBuild)];
  try {
    const bothAtOnce = (load: TenantRequest[], durationSeconds: number, sequenceStart: number) =>
      Promise.all(
        servers.map((server, index) =>
          loaders[index]!.run({
            url: server.url,
            pid: server.pid,
            requests: load,
            connections: 8,
            durationSeconds,
            timeoutSeconds: 60,
            sharedSequence: true,
            sequenceStart,
          }),
        ),
      );
    console.log("| reads | ratio per round (this build's CPU per request / the other's) | median |\n|---|---|---:|");
    for (const kind of [...TENANT_READ_MIX.map((read) => read.kind), "mix"]) {
      const load = kind === "mix" ? requests : requests.filter((request) => request.kind === kind);
      await bothAtOnce(load, 2, 0);
      const ratios: number[] = [];
      for (let round = 1; round <= Number(rounds); round++) {
        const [ours, theirs] = await bothAtOnce(load, 3, round * 1000);
        if (ours!.non2xx + theirs!.non2xx > 0) throw new Error(`${kind}: ${ours!.non2xx} and ${theirs!.non2xx} answers were not 2xx`);
        ratios.push(ours!.cpuPerRequestMs! / theirs!.cpuPerRequestMs!);
      }
      const sorted = [...ratios].sort((a, b) => a - b);
      const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
      console.log(`| ${kind} | ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")} | ${median.toFixed(2)} |`);
    }
    const [ourRss, theirRss] = servers.map((server) => (rssBytes(server.pid) / 2 ** 20).toFixed(0));
    console.log(`RSS after the runs: this build ${ourRss} MB, the other ${theirRss} MB`);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
} finally {
  for (const loader of loaders) loader.close();
  await scratch.drop();
}
