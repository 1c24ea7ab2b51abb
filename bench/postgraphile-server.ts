// PostGraphile 5 for the benchmark's comparisons (bench/postgraphile.ts, bench/postgraphile-tenants.ts):
// installed outside the checkout (PG5_DIR, /tmp/pg5 by default) and run on the Node in PG5_NODE, since
// it needs Node >= 22. Started on a scratch database; resolves once it answers GraphQL.
import { spawn, type ChildProcess } from "node:child_process";
import type { BenchRequest } from "./scenarios.js";

const PG5_DIR = process.env.PG5_DIR ?? "/tmp/pg5";

/**
 * The nested read as PostGraphile's generated schema can ask it: the environment's first 100 grants
 * with their release and its owner (toolgate's activeGrants also leaves out deleted grants and
 * unavailable releases, which that schema cannot express without plugins).
 */
const NESTED_READ = `query ($id: String!) { environmentByRowId(rowId: $id) { name grantsByEnvironmentId(first: 100) { nodes { rowId toolReleaseByReleaseId { name version accountByOwnerAccountId { name } } } } } }`;

export interface RunningPostGraphile {
  url: string;
  process: ChildProcess;
}

export function postgraphileNestedRead(environmentId: string): BenchRequest {
  return {
    method: "POST",
    path: "/graphql",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: NESTED_READ, variables: { id: environmentId } }),
  };
}

export async function startPostGraphile(databaseUrl: string, port: number): Promise<RunningPostGraphile> {
  const child = spawn(
    process.env.PG5_NODE ?? process.execPath,
    [
      `${PG5_DIR}/node_modules/postgraphile/dist/cli-run.js`,
      "--preset",
      "postgraphile/presets/amber",
      "-c",
      databaseUrl,
      "-s",
      "public",
      "-p",
      String(port),
      "-n",
      "127.0.0.1",
    ],
    { cwd: PG5_DIR, env: { ...process.env, NODE_ENV: "production", GRAPHILE_ENV: "production" }, stdio: ["ignore", "inherit", "inherit"] },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const probe = await fetch(`${url}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{__typename}"}' });
      if (probe.ok) return { url, process: child };
    } catch {
      if (attempt > 100) {
        child.kill();
        throw new Error("PostGraphile did not start");
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
