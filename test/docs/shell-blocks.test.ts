// Every ```sh block of README.md and docs/*.md, run as a reader runs them: bash in the project
// directory, after pasting the `export` lines a demo server's banner printed, block after block in
// one shell in the document's order, the documents one after another against one demo server (the
// shipped bin/toolgate.js), on each database. Every HTTP answer must be a success unless the document says, in an
// HTML comment on the line before the block, which statuses it shows (`<!-- expect: 401 405 -->`).
// A block a reader runs elsewhere (installing, starting or resetting the server, the benchmark) says
// so there too (`<!-- not run: … -->`), and the test checks that every block is one or the other.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { bannerExports, serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { describeEachDatabase, POSTGRES_URL } from "../helpers/service.js";

const run = promisify(execFile);

interface ShellBlock {
  document: string;
  line: number;
  script: string;
  /** Statuses of 400 and above the document shows on purpose. */
  expected: number[];
  /** Why a reader runs it elsewhere; undefined for blocks run against the demo. */
  notRun?: string | undefined;
}

const DOCUMENTS = [
  "README.md",
  ...readdirSync("docs")
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

function shellBlocks(document: string): ShellBlock[] {
  const lines = readFileSync(document, "utf8").split("\n");
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    // Fences may be indented (a block inside a list item); the block's lines are, as much.
    const indent = /^( *)```sh$/.exec(lines[i]!)?.[1];
    if (indent === undefined) continue;
    const end = lines.indexOf(indent + "```", i + 1);
    const marker = /^ *<!-- (expect|not run): (.+) -->$/.exec(lines[i - 1] ?? "");
    blocks.push({
      document,
      line: i + 1,
      script: lines
        .slice(i + 1, end)
        .map((line) => line.slice(indent.length))
        .join("\n"),
      expected: marker?.[1] === "expect" ? marker[2]!.split(/\s+/).map(Number) : [],
      notRun: marker?.[1] === "not run" ? marker[2] : undefined,
    });
    i = end;
  }
  return blocks;
}

const ALL_BLOCKS = DOCUMENTS.flatMap(shellBlocks);
const RUN_DOCUMENTS = DOCUMENTS.filter((document) => ALL_BLOCKS.some((block) => block.document === document && !block.notRun));

/** Every answer's status goes to stderr, after the block's marker, whatever the block does with the body. */
const CURL_STATUS = `curl() { command curl -w '%{stderr}HTTP %{http_code}\\n' "$@"; }`;

describe("the documents' shell blocks", () => {
  it("are each run against the demo or say why a reader runs them elsewhere", () => {
    expect(ALL_BLOCKS.length).toBeGreaterThan(20);
    for (const block of ALL_BLOCKS) expect(block.script, `${block.document}:${block.line}`).not.toMatch(/^\$ /m);
    // Placeholders a reader would have to replace are not runnable: every value comes from the banner or an earlier block.
    for (const block of ALL_BLOCKS.filter((candidate) => !candidate.notRun))
      expect(block.script, `${block.document}:${block.line}`).not.toMatch(/<[a-z][^>]*>|…/);
  });
});

describeEachDatabase("the documents' shell blocks, run verbatim", (provider) => {
  let scratch: ScratchDatabase;
  let server: ServingToolgate;
  let exports: string[];
  beforeAll(async () => {
    scratch = await createScratchDatabase(provider, POSTGRES_URL);
    server = await serveToolgate({ TOOLGATE_DATABASE_URL: scratch.url }, 120_000, ["--demo"]);
    exports = bannerExports(server.stdout());
    expect(exports).toHaveLength(3);
  }, 180_000);
  afterAll(async () => {
    await server?.ensureDead();
    await scratch?.drop();
  });

  // One demo, the documents in a newcomer's order (README, then publishing, then the API), each
  // finding what the ones before it left.
  for (const document of RUN_DOCUMENTS) {
    it(`${document}: every block succeeds, in order, in one shell`, async () => {
      const blocks = shellBlocks(document).filter((block) => !block.notRun);
      const script = [
        "set -eu",
        ...exports,
        // The admin commands a document shows run against the same database.
        `export TOOLGATE_DATABASE_URL='${scratch.url}'`,
        CURL_STATUS,
        ...blocks.flatMap((block, index) => [`echo '@@block ${index}' >&2`, block.script]),
      ].join("\n");
      const result = await run("bash", ["-c", script], { cwd: path.resolve("."), timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }).then(
        ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
        (error: { stdout: string; stderr: string; code: number }) => error,
      );
      const sections = result.stderr.split(/^@@block (\d+)\n/m);
      const statuses = new Map<number, number[]>();
      for (let i = 1; i < sections.length; i += 2)
        statuses.set(
          Number(sections[i]),
          [...sections[i + 1]!.matchAll(/^HTTP (\d{3})$/gm)].map((m) => Number(m[1])),
        );
      const reached = statuses.size - 1;
      expect(
        result.code,
        `${document}:${blocks[reached]?.line} failed (exit ${result.code}):\n${result.stderr.slice(-2000)}\n${result.stdout.slice(-2000)}`,
      ).toBe(0);
      blocks.forEach((block, index) => {
        const answered = statuses.get(index) ?? [];
        const where = `${document}:${block.line}`;
        expect(
          answered.filter((status) => status === 0 || (status >= 400 && !block.expected.includes(status))),
          `${where} answered ${answered.join(", ")}`,
        ).toEqual([]);
        for (const status of block.expected) expect(answered, `${where} shows ${status}`).toContain(status);
      });
    }, 180_000);
  }
});
