// A login role without CREATEDB on the test server, for the path where toolgate finds its database
// missing and may not create it. Trust authentication admits it with any password.
import pg from "pg";

export interface LimitedRole {
  name: string;
  /** The server URL as this role, naming `database`, with `password` when given. */
  url(database: string, password?: string): string;
  drop(): Promise<void>;
}

async function asServerAdmin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createRoleWithoutCreatedb(serverUrl: string): Promise<LimitedRole> {
  const name = `toolgate_nocreatedb_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await asServerAdmin(serverUrl, `CREATE ROLE ${name} LOGIN NOCREATEDB`);
  return {
    name,
    url: (database, password) => {
      const url = new URL(serverUrl);
      url.username = name;
      url.password = password ?? "";
      url.pathname = `/${database}`;
      return url.toString();
    },
    drop: () => asServerAdmin(serverUrl, `DROP ROLE IF EXISTS ${name}`),
  };
}
