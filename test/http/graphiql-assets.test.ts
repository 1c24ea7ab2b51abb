// GraphiQL as the shipped build serves it (bin/toolgate.js): a page of a few kilobytes that loads
// GraphiQL's files from URLs named by their content, each cached for a year and sent as compressed
// by the build (brotli or gzip, as Accept-Encoding asks; never compressed again on the way out).
// The page used to inline them all: 9 MB a visit, and 200 visits at once held /healthz for 44 s.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRAPHIQL_CONFIGURATION_ID } from "../../src/http/pages/graphiql-boot.js";
import { residentBytes } from "../helpers/process-memory.js";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { rawRequest } from "../helpers/raw-http.js";

const IMMUTABLE = "public, max-age=31536000, immutable";
const CODINGS = [
  { acceptEncoding: "br", coding: "br", decode: brotliDecompressSync },
  { acceptEncoding: "gzip", coding: "gzip", decode: gunzipSync },
  { acceptEncoding: "gzip, deflate, br", coding: "br", decode: brotliDecompressSync },
  { acceptEncoding: "br;q=0.5, gzip", coding: "gzip", decode: gunzipSync },
] as const;

/** The CPU time process `pid` has used (Linux), user and system, in seconds. */
function cpuSeconds(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second); the command name before them may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** GET `url`, counting the body's bytes without keeping them. */
function download(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
      response.on("end", () => resolve({ status: response.statusCode!, bytes }));
    }).on("error", reject);
  });
}

describe("GraphiQL's page and files on the shipped build", () => {
  let folder: string;
  let server: ServingToolgate;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), "toolgate-graphiql-"));
    server = await serveToolgate(
      // A burst above the anonymous default (200), so that every one of 200 loads is answered, not refused.
      { TOOLGATE_DATABASE_URL: `file:${path.join(folder, "toolgate.db")}`, TOOLGATE_RATE_LIMIT_ANONYMOUS_BURST: "1000" },
      120_000,
      ["--demo"],
    );
  }, 180_000);
  afterAll(async () => {
    await server?.ensureDead();
    rmSync(folder, { recursive: true, force: true });
  });

  const get = (urlPath: string, headers: Record<string, string> = {}) => rawRequest(server.url, "GET", urlPath, headers);
  const page = () => get("/graphql", { accept: "text/html" });

  /** What the page loads: its stylesheet and scripts, and the workers its configuration names. */
  async function assetUrls(): Promise<string[]> {
    const html = (await page()).body.toString();
    const linked = [...html.matchAll(/(?:src|href)="(\/graphiql\/assets\/[^"]+)"/g)].map(([, url]) => url!);
    const configuration = new RegExp(`<script type="application/json" id="${GRAPHIQL_CONFIGURATION_ID}">(.*?)</script>`, "s").exec(html)![1]!;
    return [...linked, ...Object.values((JSON.parse(configuration) as { workers: Record<string, string> }).workers)];
  }

  it("serves a page under 1 MB that loads GraphiQL's files from URLs named by their content", async () => {
    const response = await page();
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.body.byteLength).toBeLessThan(1024 * 1024);
    const urls = await assetUrls();
    // The stylesheet, the boot script, GraphiQL's bundle, and Monaco's three editor workers.
    expect(urls).toHaveLength(6);
    for (const url of urls) expect(url).toMatch(/^\/graphiql\/assets\/[a-z.]+\.[0-9a-f]{16}\.(?:js|css)$/);
  });

  it("sends each file cached for a year, brotli or gzip as asked, decoding to the identity bytes", async () => {
    for (const url of await assetUrls()) {
      const identity = await get(url);
      expect(identity.status, url).toBe(200);
      expect(identity.headers["content-type"], url).toBe(url.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8");
      expect(identity.headers["content-encoding"], url).toBeUndefined();
      expect(identity.headers["cache-control"], url).toBe(IMMUTABLE);
      expect(identity.headers.vary, url).toBe("Accept-Encoding");
      expect(identity.headers["content-length"], url).toBe(String(identity.body.byteLength));
      expect(url).toContain(`.${createHash("sha256").update(identity.body).digest("hex").slice(0, 16)}.`);
      for (const { acceptEncoding, coding, decode } of CODINGS) {
        const coded = await get(url, { "accept-encoding": acceptEncoding });
        expect({ url, acceptEncoding, status: coded.status, coding: coded.headers["content-encoding"] }).toEqual({ url, acceptEncoding, status: 200, coding });
        expect(coded.headers["content-type"], url).toBe(identity.headers["content-type"]);
        expect(coded.headers["cache-control"], url).toBe(IMMUTABLE);
        expect(coded.headers.vary, url).toBe("Accept-Encoding");
        expect(coded.headers["content-length"], url).toBe(String(coded.body.byteLength));
        // Decoded once, it is the file: compressed ahead and not compressed again on the way out.
        expect(decode(coded.body).equals(identity.body), `${url} ${acceptEncoding}`).toBe(true);
        const head = await rawRequest(server.url, "HEAD", url, { "accept-encoding": acceptEncoding });
        expect({ status: head.status, coding: head.headers["content-encoding"], length: head.headers["content-length"], body: head.body.byteLength }).toEqual({
          status: 200,
          coding,
          length: coded.headers["content-length"],
          body: 0,
        });
      }
    }
  });

  it("answers 404 for any other file name under /graphiql/assets/", async () => {
    for (const url of ["/graphiql/assets/graphiql.0123456789abcdef.js", "/graphiql/assets/manifest.json", "/graphiql/assets/..%2Fmanifest.json"]) {
      expect((await get(url)).status, url).toBe(404);
    }
  });

  // The server's CPU time, not the wall clock: the suite may load the machine (2 cores) with other
  // servers and a browser. The 9 MB page took 44 s of wall clock for these 200, /healthz as long.
  it("answers 200 page loads at once with under 5 s of the server's CPU, /healthz among them", async () => {
    const pid = server.child.pid!;
    const cpuBefore = cpuSeconds(pid);
    const loads = Promise.all(Array.from({ length: 200 }, () => get("/graphql", { accept: "text/html", "accept-encoding": "gzip, deflate, br" })));
    const healthz = get("/healthz");
    const [pages, health] = await Promise.all([loads, healthz]);
    expect(pages.every((response) => response.status === 200)).toBe(true);
    expect(health.status).toBe(200);
    expect(cpuSeconds(pid) - cpuBefore).toBeLessThan(5);
  });

  it("sends its largest file to 100 clients at once without a copy per client", async () => {
    const urls = await assetUrls();
    const sizes = await Promise.all(urls.map(async (url) => ({ url, bytes: (await get(url)).body.byteLength })));
    const largest = sizes.sort((a, b) => b.bytes - a.bytes)[0]!;
    expect(largest.bytes).toBeGreaterThan(4 * 2 ** 20);
    const pid = server.child.pid!;
    const before = residentBytes(pid);
    // The peak, sampled while they download: a collection may free copies before they end.
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 10);
    const downloads = await Promise.all(Array.from({ length: 100 }, () => download(server.url + largest.url))).finally(() => clearInterval(sampler));
    expect(downloads.every(({ status, bytes }) => status === 200 && bytes === largest.bytes)).toBe(true);
    // A copy each would be 100 × 5 MB.
    expect(peak - before).toBeLessThan(100 * 2 ** 20);
  });
});
