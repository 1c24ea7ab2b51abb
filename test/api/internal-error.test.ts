// A failure nobody planned for answers 500 INTERNAL_UNKNOWN with no detail, on both surfaces, and
// is logged at error level with the id of the request it failed.
import { Writable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";
import { expectGraphQLErrorStatus } from "../helpers/http.js";

describeEachDatabase("unexpected failures", (provider) => {
  let service: TestService;
  let world: World;
  let releaseId: string;
  const logLines: { level: number; msg: string; requestId?: string; err?: { message?: string } }[] = [];
  const errorLinesOf = (requestId: string | null) => logLines.filter((line) => line.level >= 50 && line.requestId === requestId);
  beforeAll(async () => {
    const logDestination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) logLines.push(JSON.parse(line) as (typeof logLines)[number]);
        done();
      },
    });
    service = await startTestService(provider, { logLevel: "error" }, { logDestination });
    world = await createWorld(service);
    releaseId = (await world.publish(world.owner, "doomed-tool", "1.0.0")).id;
    // Break the database under the running server: the release table disappears.
    await service.db.$executeRawUnsafe('ALTER TABLE "ToolRelease" RENAME TO "ToolReleaseGone"');
  });
  afterAll(() => service?.stopAndDrop());

  it("answers 500 INTERNAL_UNKNOWN through REST without stack trace or SQL", async () => {
    const result = await world.owner.http.get(`/v1/tool-releases/${releaseId}`);
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ code: "INTERNAL_UNKNOWN", error: "internal server error" });
    expect(result.headers.get("x-request-id")).toBeTruthy();
    expect(errorLinesOf(result.headers.get("x-request-id"))).toEqual([
      expect.objectContaining({ msg: "unexpected error", err: expect.objectContaining({ message: expect.stringContaining("ToolRelease") }) }),
    ]);
  });

  it("answers INTERNAL_UNKNOWN through GraphQL without details", async () => {
    const result = await world.owner.http.graphql(`query ($id: UUID!) { toolRelease(id: $id) { name } }`, { id: releaseId });
    // toolRelease is nullable: a partial result `{ toolRelease: null }`, 200 with the 500 in the error.
    expectGraphQLErrorStatus(result, 500);
    expect(result.body.errors).toEqual([
      expect.objectContaining({ message: "internal server error", extensions: expect.objectContaining({ code: "INTERNAL_UNKNOWN" }) }),
    ]);
    expect(result.text).not.toMatch(/ToolRelease"|SELECT|at .*\.ts/);
    expect(errorLinesOf(result.headers.get("x-request-id"))).toEqual([
      expect.objectContaining({ msg: "unexpected GraphQL error", err: expect.objectContaining({ message: expect.stringContaining("ToolRelease") }) }),
    ]);
  });
});
