// `npx tsx bench/postgres-transport.ts [database] [socket directory]`: what one statement costs the
// client process over TCP on loopback and over PostgreSQL's Unix socket: node-postgres's CPU per
// named statement (`SELECT $1`), one client and a pool of 4, 3,000 statements each after a warm-up.
// Numbers for docs/deploy.md ("PostgreSQL on the same host").
import pg from "pg";

const database = process.argv[2] ?? "test";
const socketDirectory = process.argv[3] ?? "/var/run/postgresql";
const STATEMENTS = 3000;

async function cpuPerStatement(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 300; i++) await run();
  const started = process.cpuUsage();
  for (let i = 0; i < STATEMENTS; i++) await run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / STATEMENTS;
}

const statement = { name: "transport-probe", text: "SELECT $1::int AS x", values: [1] };
console.log("| transport | one client, µs of CPU per statement | pool of 4, µs of CPU per statement |\n|---|---:|---:|");
for (const [transport, url] of [
  ["TCP, 127.0.0.1", `postgres://postgres@127.0.0.1:5432/${database}`],
  ["Unix socket", `postgres://postgres@${encodeURIComponent(socketDirectory)}/${database}`],
] as const) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    const single = await cpuPerStatement(() => client.query(statement));
    const pooled = await cpuPerStatement(() => pool.query(statement));
    console.log(`| ${transport} | ${single.toFixed(0)} | ${pooled.toFixed(0)} |`);
  } finally {
    await client.end();
    await pool.end();
  }
}
