import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/http/logger.js";
import { runInRequestScope } from "../../src/http/request-scope.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, logger: createLogger("info", stream) };
}

describe("logger", () => {
  it("tags every line logged while serving a request with its id, even from code that never sees the context", async () => {
    const { lines, logger } = capture();
    await runInRequestScope("req-42", async () => {
      await Promise.resolve();
      logger.error({ err: new Error("boom") }, "unexpected GraphQL error");
    });
    logger.info("outside any request");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({ requestId: "req-42", msg: "unexpected GraphQL error", service: "toolgate" });
    expect(lines[1]).not.toHaveProperty("requestId");
  });
});
