// The automatic-persisted-query store stays bounded however many hashes clients send. (The protocol
// against a running server: test/http/graphql-over-http.test.ts.)
import { describe, expect, it } from "vitest";
import { createPersistedQueryStore, PERSISTED_QUERY_LIMITS } from "../../src/http/graphql-endpoint/plugins/persisted-queries.js";

describe("persisted query store", () => {
  it("keeps at most maxQueries, dropping the least recently used", async () => {
    const store = createPersistedQueryStore({ ...PERSISTED_QUERY_LIMITS, maxQueries: 2 });
    await store.set("a", "{ a }");
    await store.set("b", "{ b }");
    expect(await store.get("a")).toBe("{ a }"); // a is now the most recently used
    await store.set("c", "{ c }");
    expect([await store.get("a"), await store.get("b"), await store.get("c")]).toEqual(["{ a }", null, "{ c }"]);
  });

  it("keeps at most maxTotalChars of query text, and never stores a query larger than that", async () => {
    const store = createPersistedQueryStore({ ...PERSISTED_QUERY_LIMITS, maxTotalChars: 10 });
    await store.set("six", "x".repeat(6));
    await store.set("five", "y".repeat(5));
    expect([await store.get("six"), await store.get("five")]).toEqual([null, "yyyyy"]);
    await store.set("huge", "z".repeat(11));
    expect([await store.get("huge"), await store.get("five")]).toEqual([null, "yyyyy"]);
  });
});
