// Hostile input must not grow the process: every document is distinct and padded to a megabyte with
// a comment or a string (one token each, so within the token limit). Yoga's own parse cache kept
// 1,024 such documents whatever their size (120 → 1,200 MB here); toolgate's is bounded by bytes.
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedParserCaches } from "../../src/http/graphql-endpoint/document-cache.js";
import { serveUnlimited, type ServingToolgate } from "../helpers/child-process.js";
import { mib, residentBytes } from "../helpers/process-memory.js";
import { startTestService, type TestService } from "../helpers/service.js";

const DOCUMENTS = 150;
/** Where the served process must end, and how much it may grow over the run. */
const RSS_CEILING_MIB = 250;
const GROWTH_MIB = 60;

describe("the parse cache's bounds", () => {
  it("keeps small documents, refuses heavy ones, and stays within its byte budget", () => {
    const { documentCache } = boundedParserCaches({ maxEntries: 100, maxBytes: 64 * 1024, maxEntryBytes: 16 * 1024 });
    const small = "{ __typename }";
    documentCache.set(small, parse(small));
    expect(documentCache.get(small)).toBeDefined();
    const heavy = `# ${"x".repeat(20_000)}\n{ __typename }`;
    documentCache.set(heavy, parse(heavy));
    expect(documentCache.get(heavy)).toBeUndefined();
    const padded = Array.from({ length: 20 }, (_, index) => `# ${"y".repeat(6_000)} ${index}\n{ __typename }`);
    for (const text of padded) documentCache.set(text, parse(text));
    // Each weighs ~12 KB: a 64 KB budget keeps the newest few, not all twenty.
    const kept = padded.filter((text) => documentCache.get(text) !== undefined);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(6);
    expect(kept).toEqual(padded.slice(-kept.length));
  });
});

describe("distinct megabyte documents sent to the shipped build", () => {
  let service: TestService;
  let server: ServingToolgate;
  beforeAll(async () => {
    service = await startTestService("sqlite");
    server = await serveUnlimited(service);
  }, 120_000);
  afterAll(async () => {
    await server?.ensureDead();
    await service?.stopAndDrop();
  });

  it(`answers ${DOCUMENTS * 2} of them and ends under ${RSS_CEILING_MIB} MiB, within ${GROWTH_MIB} MiB of where it started`, { timeout: 180_000 }, async () => {
    const pid = server.child.pid!;
    const send = (query: string) =>
      fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${service.adminToken}` },
        body: JSON.stringify({ query }),
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });
    await send("{ __typename }");
    const before = mib(residentBytes(pid));
    const comment = `#${"x".repeat(1_000_000)}\n`;
    const statuses = new Set<number>();
    for (let index = 0; index < DOCUMENTS; index += 1) {
      statuses.add(await send(`${comment}{ __typename } # ${index}`));
      statuses.add(await send(`{ node(id: "${"y".repeat(500_000)}${index}") { id } }`));
    }
    const after = mib(residentBytes(pid));
    console.info(`[hostile memory] ${DOCUMENTS * 2} distinct padded documents: server RSS ${before} → ${after} MiB`);
    expect([...statuses].every((status) => status < 500)).toBe(true);
    expect(after).toBeLessThan(RSS_CEILING_MIB);
    expect(after - before).toBeLessThan(GROWTH_MIB);
  });
});
