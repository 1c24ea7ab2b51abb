// A property-based run of /openapi.json against the shipped server (bin/toolgate.js), as a
// schema-driven API tester (Schemathesis) runs it: for every operation, requests generated from the
// parameter and body schemas (json-schema-arbitrary.ts), real ids, cursors and valid definitions of
// a seeded registry mixed in, sent with real tokens. Every answer must be no 5xx, a status the
// operation documents, and a body its schema admits; a 400 may only name a rule the document states
// in words because JSON Schema cannot (STATED_IN_WORDS). Every path must answer the methods it does
// not document with 405 and an Allow header listing exactly those it documents.
// Reproduce a failure with PROPERTIES_SEED=<seed>.
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import {
  caseArbitrary,
  caseProblems,
  documentedOperations,
  documentValidators,
  type Case,
  type DocumentedOperation,
  type OpenApiDocument,
} from "../helpers/openapi-cases.js";
import { hintsOf, realPath, seedRegistry, type Registry } from "../helpers/property-registry.js";
import { rawRequest, type RawResponse } from "../helpers/raw-http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld } from "../helpers/world.js";

const SEED = Number(process.env.PROPERTIES_SEED ?? 20261127);
const CASES_PER_OPERATION = 40;
/** Operations with a body get more: the body is where most of the schema is. */
const CASES_PER_BODY_OPERATION = 160;
const CONCURRENCY = 4;

/**
 * Why a schema-compliant request may still be 400: rules over several values (uniqueness,
 * references, order), which JSON Schema cannot state. The document states each in the description
 * of the schema it constrains; anything else a 400 names is a constraint the document lacks.
 */
const STATED_IN_WORDS: { rule: string; problem: RegExp }[] = [
  { rule: "a cursor is one the list issued", problem: /^query\.cursor: .* is not a cursor of this list$/s },
  {
    rule: "a grant is deleted once per body, its id compared without case",
    problem: /^grantReconciliation\.deletions\[\d+\]: grant .* is already deleted by grantReconciliation\.deletions\[\d+\]$/s,
  },
  { rule: "publication names are unique in a body", problem: /^publications\[\d+\]\.name: .* is already published by publications\[\d+\]$/s },
  { rule: "a publication's name is its definition's", problem: /^publications\[\d+\]\.definition\.name: .* does not match the publication name/s },
  {
    rule: "names and aliases are unique in their namespace",
    problem: /: duplicate (alias|command|positional|error|formatter|option|flag|short option|short flag|type id) /s,
  },
  {
    rule: "subcommands form a tree rooted at node 0",
    problem:
      /: (index \d+ out of range|index \d+ is the node itself|index \d+ forms a cycle|node \d+ is already a subcommand of node \d+|not reachable from the root)$/s,
  },
  { rule: "type refs name a def of their schema", problem: /: unknown type id /s },
  { rule: "constraints name an option or flag of their command", problem: /: .* is not an option or flag of this command$/s },
  { rule: "a tail's min is at most its max", problem: /: min -?\d+ is greater than max -?\d+$/s },
  { rule: "the default formatter is one of the formatters", problem: /: .* is not one of the formatters/s },
];

/** Methods to try on every path; FROBNICATE stands for any method HTTP does not define. */
const PROBED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "QUERY", "PROPFIND", "FROBNICATE"];

interface Sent {
  operation: DocumentedOperation;
  generated: Case;
  token: string | undefined;
}

function describeCase({ operation, generated, token }: Sent): string {
  const body = generated.body === undefined ? "" : ` ${JSON.stringify(generated.body).slice(0, 300)}`;
  return `${operation.method} ${generated.target}${token === undefined ? " (no token)" : ""}${body}`;
}

/** What is wrong with an answer to a request the document allows; nothing when it is one the document describes. */
function answerProblems(sent: Sent, answer: RawResponse, validator: ReturnType<typeof documentValidators>): string[] {
  const { operation } = sent;
  const status = answer.status;
  const text = answer.body.toString("utf8");
  if (status >= 500) return [`${status}: ${text.slice(0, 300)}`];
  const documented = operation.operation.responses[String(status)];
  if (!documented) return [`${status}, which ${operation.operation.operationId} does not document: ${text.slice(0, 300)}`];
  if (operation.method === "HEAD" || !documented.content)
    return text === "" ? [] : [`${status} with a body the document does not declare: ${text.slice(0, 200)}`];
  if (!String(answer.headers["content-type"]).startsWith("application/json")) return [`${status} as ${answer.headers["content-type"]}, not JSON`];
  const body = JSON.parse(text) as { errors?: string[] };
  const validate = validator(`${operation.pointer}/responses/${status}/content/application~1json/schema`);
  if (!validate(body)) return [`${status} with a body its schema refuses (${JSON.stringify(validate.errors?.slice(0, 3))}): ${text.slice(0, 300)}`];
  if (status !== 400) return [];
  return (body.errors ?? [])
    .filter((problem) => !STATED_IN_WORDS.some(({ problem: stated }) => stated.test(problem)))
    .map((problem) => `400 for a reason the schema does not state: ${problem}`);
}

/** Runs `send` over `items`, `concurrency` at a time, in order of start. */
async function inPool<T, R>(items: readonly T[], concurrency: number, send: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await send(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

const allowOf = (answer: RawResponse) =>
  String(answer.headers.allow ?? "")
    .split(",")
    .map((method) => method.trim())
    .filter(Boolean)
    .sort();

/** pino's level number of error. */
const ERROR_LEVEL = 50;

describeEachDatabase("the OpenAPI document, run through a property-based API tester", (provider) => {
  let service: TestService;
  let server: ServingToolgate;
  let registry: Registry;
  let document: OpenApiDocument;

  beforeAll(async () => {
    service = await startTestService(provider);
    registry = await seedRegistry(await createWorld(service));
    // One client sending thousands of requests: rate limits off.
    server = await serveToolgate({
      TOOLGATE_DATABASE_URL: service.databaseUrl,
      TOOLGATE_ADMIN_TOKEN: service.adminToken,
      TOOLGATE_RATE_LIMIT_PER_TOKEN: "0",
      TOOLGATE_RATE_LIMIT_ANONYMOUS: "0",
    });
    document = JSON.parse((await rawRequest(server.url, "GET", "/openapi.json")).body.toString("utf8")) as OpenApiDocument;
  }, 120_000);
  afterAll(async () => {
    await server?.ensureDead();
    await service?.stopAndDrop();
  });

  it(`answers generated schema-compliant requests to every operation (seed ${SEED}) as the document says: no 5xx, documented statuses and bodies, no 400 the schema does not explain`, {
    timeout: 120_000,
  }, async () => {
    const started = performance.now();
    const validator = documentValidators(document);
    const hints = hintsOf(registry);
    const tokens = fc.oneof(
      { arbitrary: fc.constantFrom<string | undefined>(...registry.tokens), weight: 9 },
      { arbitrary: fc.constant(undefined), weight: 1 },
    );
    const operations = documentedOperations(document);
    const cases: Sent[] = operations.flatMap((operation, index) => {
      const count = operation.operation.requestBody ? CASES_PER_BODY_OPERATION : CASES_PER_OPERATION;
      const samples = fc.sample(fc.tuple(caseArbitrary(document, operation, hints), tokens), { numRuns: count, seed: SEED + index });
      return samples.map(([generated, token]) => ({ operation, generated, token }));
    });
    // The generator must keep to the document, or the run proves nothing.
    const strays = cases.flatMap((sent) => caseProblems(validator, sent.operation, sent.generated).map((problem) => `${describeCase(sent)}: ${problem}`));
    expect(strays.slice(0, 5)).toEqual([]);

    const generated = performance.now();
    const answers = await inPool(cases, CONCURRENCY, ({ operation, generated, token }) => {
      const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
      if (generated.body !== undefined) headers["content-type"] = "application/json";
      return rawRequest(server.url, operation.method, generated.target, headers, generated.body === undefined ? undefined : JSON.stringify(generated.body));
    });
    const failures = cases.flatMap((sent, index) => answerProblems(sent, answers[index]!, validator).map((problem) => `${describeCase(sent)} → ${problem}`));
    const statuses = answers.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
    const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
    console.info(
      `[openapi properties ${provider}] seed ${SEED}: ${cases.length} requests over ${operations.length} operations ` +
        `(generated in ${seconds(started, generated)} s, answered in ${seconds(generated, performance.now())} s); statuses ${JSON.stringify(statuses)}; ${failures.length} failures`,
    );
    expect(failures.slice(0, 15)).toEqual([]);
    // A run that meets nothing but 404s and 401s would prove little.
    expect(statuses[200]).toBeGreaterThan(cases.length / 10);
  });

  it("answers every method a path does not document with 405 and Allow listing the documented ones, and OPTIONS with 204 and the same Allow", async () => {
    const failures: string[] = [];
    const operations = documentedOperations(document);
    for (const pathTemplate of Object.keys(document.paths)) {
      const documented = operations.filter((operation) => operation.pathTemplate === pathTemplate).map((operation) => operation.method);
      const allowed = [...documented, "OPTIONS"].sort();
      const path = realPath(pathTemplate, registry);
      for (const method of PROBED_METHODS.filter((candidate) => !documented.includes(candidate))) {
        const answer = await rawRequest(server.url, method, path, { authorization: `Bearer ${registry.tokens[1]}` });
        const expected = method === "OPTIONS" ? 204 : 405;
        const found = { status: answer.status, allow: allowOf(answer) };
        if (JSON.stringify(found) !== JSON.stringify({ status: expected, allow: allowed })) {
          failures.push(
            `${method} ${pathTemplate}: ${answer.status} with Allow "${answer.headers.allow ?? ""}", expected ${expected} with "${allowed.join(", ")}"`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("logged no error while answering", () => {
    const level = (line: string) => {
      try {
        return (JSON.parse(line) as { level?: number }).level ?? 0;
      } catch {
        return 0;
      }
    };
    const errors = (server.stdout() + server.stderr()).split("\n").filter((line) => line.startsWith("{") && level(line) >= ERROR_LEVEL);
    expect(errors.slice(0, 3)).toEqual([]);
  });
});
