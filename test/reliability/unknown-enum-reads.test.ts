// If a value outside an enum ever reaches the database anyway (a restore of an old dump, a hand
// edit with the constraints dropped), reads still answer and permissions fail closed: never a 500.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { createWorld, type World } from "../helpers/world.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

/** Lifts the database's own check (…_enum_checks migration) on updates of one column. */
async function dropUpdateCheck(db: Database, provider: DatabaseProvider, table: string, column: string): Promise<void> {
  await db.$executeRawUnsafe(
    provider === "postgresql" ? `ALTER TABLE "${table}" DROP CONSTRAINT "${table}_${column}_check"` : `DROP TRIGGER "${table}_${column}_check_update"`,
  );
}

describeEachDatabase("values outside an enum that slipped into the database", (provider) => {
  let service: TestService;
  let world: World;
  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    await dropUpdateCheck(service.db, provider, "Account", "plan");
    await dropUpdateCheck(service.db, provider, "EnvironmentShare", "role");
  });
  afterAll(() => service?.stopAndDrop());

  it("an unknown plan reads as FREE, the plan whose limits apply, not a 500", async () => {
    await service.db.$executeRawUnsafe(`UPDATE "Account" SET "plan" = 'gold' WHERE "id" = '${world.stranger.account.id}'`);
    const result = await world.stranger.http.graphql(`{ me { uuid plan } }`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: { me: { uuid: world.stranger.account.id, plan: "FREE" } } });
  });

  it("an unknown share role grants viewing only: the account may list grants but not create them", async () => {
    const release = await world.publish(world.owner, "role-probe", "1.0.0");
    await service.db.$executeRawUnsafe(
      `UPDATE "EnvironmentShare" SET "role" = 'owner' WHERE "environmentId" = '${world.environment.id}' AND "accountId" = '${world.viewer.account.id}'`,
    );
    expect((await world.viewer.http.get(`/v1/envs/${world.environment.id}/tool-middlewares`)).status).toBe(200);
    const create = await world.viewer.http.post(`/v1/envs/${world.environment.id}/tool-middlewares`, {
      release: { type: "ById", releaseId: release.id },
      automatic: false,
    });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe("AUTH_FORBIDDEN");
  });
});
