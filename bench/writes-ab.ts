// `npx tsx bench/writes-ab.ts <other-build> [sqlite|postgresql] [settle-s] [rounds] [seconds] [variant]`:
// this build against another build's `bin/toolgate.js` (a checkout of an earlier commit, built) on
// the writes scenario's data set (bench/writes.ts), both servers written to at the same time, each
// by 8 connections of its own accounts (`variant`: distinct or apply; see bench/writes.ts). Both
// settle for `settle-s` seconds, then each round reads both servers' CPU per write over the same
// `seconds`: runs side by side meet the same moments of a shared VM, so the per-round ratio holds
// still where the times do not. On SQLite both servers write one file and wait on each other's
// locks, which costs the slower one more: compare SQLite builds with `npm run bench` instead.
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { median } from "./measure.js";
import { cpuMillis } from "./proc.js";
import { startToolgate } from "./servers.js";
import { seedTenantsDatabase } from "./tenants-dataset.js";
import { writeLoops, writeTargets, type WritesVariantId } from "./writes.js";

const [otherBuild, provider = "postgresql", settle = "60", rounds = "6", seconds = "10", variant = "distinct"] = process.argv.slice(2);
if (!otherBuild)
  throw new Error("usage: npx tsx bench/writes-ab.ts <other build's bin/toolgate.js> [sqlite|postgresql] [settle-s] [rounds] [seconds] [distinct|apply]");
const CONNECTIONS = 8;

const scratch = await createScratchDatabase(provider as DatabaseProvider);
try {
  const { seed } = await seedTenantsDatabase(scratch.url, provider as DatabaseProvider, {
    accounts: 2 * CONNECTIONS,
    environmentsPerAccount: 1,
    releasesPerAccount: 5,
    grantsPerEnvironment: 5,
  });
  const servers = [await startToolgate(scratch.url), await startToolgate(scratch.url, {}, otherBuild)];
  try {
    // Each server writes to accounts of its own, so neither waits on the other's locks (PostgreSQL).
    const targets = servers.map((_, index) =>
      writeTargets({ ...seed, accounts: seed.accounts.slice(index * CONNECTIONS, (index + 1) * CONNECTIONS) }, variant as WritesVariantId, CONNECTIONS),
    );
    const sideBySide = async (durationSeconds: number) => {
      const tallies = servers.map(() => ({ writes: 0, errors: 0, firstErrors: [] as string[], latenciesMs: [] as number[] }));
      const before = servers.map((server) => cpuMillis(server.pid));
      const stop = new Promise<void>((resolve) => setTimeout(resolve, durationSeconds * 1000));
      await Promise.all(servers.map((server, index) => writeLoops(server.url, targets[index]!, stop, tallies[index]!)));
      return servers.map((server, index) => ({ ...tallies[index]!, cpuPerWrite: (cpuMillis(server.pid) - before[index]!) / tallies[index]!.writes }));
    };
    if (Number(settle) > 0) await sideBySide(Number(settle));
    const ratios: number[] = [];
    for (let round = 1; round <= Number(rounds); round++) {
      const [ours, theirs] = await sideBySide(Number(seconds));
      ratios.push(ours!.cpuPerWrite / theirs!.cpuPerWrite);
      console.log(
        `round ${round}: this build ${ours!.cpuPerWrite.toFixed(2)} ms/write (${ours!.writes} writes, ${ours!.errors} errors), ` +
          `the other ${theirs!.cpuPerWrite.toFixed(2)} (${theirs!.writes}, ${theirs!.errors}): ${ratios.at(-1)!.toFixed(2)}`,
      );
    }
    console.log(`${variant}, ${provider}: this build's CPU per write over the other's, median of ${rounds} rounds: ${median(ratios).toFixed(2)}`);
  } finally {
    for (const server of servers) await server.stop();
  }
} finally {
  await scratch.drop();
}
