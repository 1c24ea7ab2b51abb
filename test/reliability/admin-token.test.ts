// A revoked TOOLGATE_ADMIN_TOKEN stays revoked: a restart with it is refused (one line, exit 2)
// instead of silently un-revoking it; a new secret starts normally and the old one stays dead.
import { afterEach, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { openDatabase } from "../../src/db/client.js";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { revokeToken } from "../../src/domain/accounts.js";
import { hashSecret } from "../../src/domain/tokens.js";
import { startService } from "../../src/service.js";
import { StartupError } from "../../src/startup-error.js";
import { runToolgate } from "../helpers/child-process.js";
import { client } from "../helpers/http.js";
import { describeEachDatabase, POSTGRES_URL } from "../helpers/service.js";

describeEachDatabase("TOOLGATE_ADMIN_TOKEN revocation", (provider) => {
  let scratch: ScratchDatabase | undefined;
  afterEach(async () => {
    await scratch?.drop();
    scratch = undefined;
  });
  const configFor = (databaseUrl: string, adminToken: string) => loadConfig({}, { databaseUrl, port: 0, logLevel: "silent", adminToken });

  it("refuses to start with a revoked TOOLGATE_ADMIN_TOKEN, and keeps it revoked", async () => {
    scratch = await createScratchDatabase(provider, POSTGRES_URL);
    const revoked = `tg_revoked_${"r".repeat(32)}`;
    const first = await startService(configFor(scratch.url, revoked));
    await first.stop();
    const db = await openDatabase(scratch.url);
    try {
      const token = await db.apiToken.findUniqueOrThrow({ where: { secretHash: hashSecret(revoked) } });
      await revokeToken(db, "system", token.id);
    } finally {
      await db.$disconnect();
    }

    const refused = await startService(configFor(scratch.url, revoked)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StartupError);
    expect((refused as Error).message).toMatch(/^cannot start: TOOLGATE_ADMIN_TOKEN was revoked at \S+; configure a new secret/);

    const replacement = `tg_replacement_${"n".repeat(32)}`;
    const second = await startService(configFor(scratch.url, replacement));
    try {
      expect((await client(second.url, replacement).graphql("{ me { admin } }")).body.data).toEqual({ me: { admin: true } });
      expect((await client(second.url, revoked).graphql("{ me { admin } }")).status).toBe(401);
    } finally {
      await second.stop();
    }
  });

  if (provider === "sqlite") {
    it("`toolgate serve` exits 2 with one line when TOOLGATE_ADMIN_TOKEN is revoked", async () => {
      scratch = await createScratchDatabase(provider);
      const revoked = `tg_revoked_${"c".repeat(32)}`;
      const first = await startService(configFor(scratch.url, revoked));
      await first.stop();
      const db = await openDatabase(scratch.url);
      await db.apiToken.updateMany({ where: { secretHash: hashSecret(revoked) }, data: { revokedAt: new Date() } });
      await db.$disconnect();

      const serve = runToolgate(["serve", "--port", "0"], { TOOLGATE_DATABASE_URL: scratch.url, TOOLGATE_ADMIN_TOKEN: revoked });
      const exit = await serve.exited;
      expect(exit.code).toBe(2);
      expect(serve.stderr().trim().split("\n")).toEqual([expect.stringMatching(/^cannot start: TOOLGATE_ADMIN_TOKEN was revoked at/)]);
      expect(serve.stderr()).not.toContain(revoked);
    });
  }
});
