// Starting against a database that is unreachable, partitioned or missing (and not creatable) fails fast (within 10 s)
// with exit status 2 and one line naming host and database and the cause, password redacted, no
// stack trace. The real `toolgate serve`, as a child process.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolgate } from "../helpers/child-process.js";
import { POSTGRES_URL } from "../helpers/service.js";
import { createRoleWithoutCreatedb, type LimitedRole } from "../helpers/postgres-role.js";
import { hostAndPort, startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.js";

const PASSWORD = "sekret-password";

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function expectOneLineStartupFailure(databaseUrl: string, expected: { host: string; database: string; cause: RegExp }) {
  const started = performance.now();
  const serve = runToolgate(["serve", "--port", "0"], { TOOLGATE_DATABASE_URL: databaseUrl });
  const exit = await serve.exited;
  expect(exit.code, serve.stderr()).toBe(2);
  expect(exit.at - started).toBeLessThan(10_000);
  const lines = serve.stderr().trim().split("\n");
  expect(lines, serve.stderr()).toHaveLength(1);
  expect(lines[0]).toContain(expected.host);
  expect(lines[0]).toContain(`"${expected.database}"`);
  expect(lines[0]).toMatch(expected.cause);
  expect(serve.stderr() + serve.stdout()).not.toContain(PASSWORD);
  expect(serve.stdout()).toBe("");
}

(POSTGRES_URL ? describe : describe.skip)("start-up against an unavailable database [postgresql]", () => {
  let proxy: TcpProxy;
  let role: LimitedRole;
  beforeAll(async () => {
    proxy = await startTcpProxy(hostAndPort(POSTGRES_URL!), "blackhole");
    role = await createRoleWithoutCreatedb(POSTGRES_URL!);
  });
  afterAll(async () => {
    await proxy?.close();
    await role?.drop();
  });

  it("exits 2 with one line when nothing listens at the database's address", async () => {
    const port = await unusedPort();
    await expectOneLineStartupFailure(`postgres://toolgate:${PASSWORD}@127.0.0.1:${port}/registry`, {
      host: `127.0.0.1:${port}`,
      database: "registry",
      cause: /ECONNREFUSED/,
    });
  });

  it("exits 2 with one line within 10 s when the database's address black-holes connections", async () => {
    await expectOneLineStartupFailure(`postgres://toolgate:${PASSWORD}@127.0.0.1:${proxy.port}/registry`, {
      host: `127.0.0.1:${proxy.port}`,
      database: "registry",
      cause: /timeout/i,
    });
  });

  it("exits 2 with one line when the database does not exist and the role may not create it", async () => {
    const url = new URL(role.url("toolgate_missing_database", PASSWORD)); // trust authentication ignores the password
    await expectOneLineStartupFailure(url.toString(), {
      host: `${url.hostname}:${url.port || 5432}`,
      database: "toolgate_missing_database",
      cause: /does not exist .* may not create it \(permission denied to create database\); as a superuser, run: CREATE DATABASE "toolgate_missing_database"/,
    });
  });
});
