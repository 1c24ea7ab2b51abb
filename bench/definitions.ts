// Middleware definitions for the benchmark's data set: the project's fixtures (the generated
// cloudctl-like tool, git-lite) as templates, padded to a deterministic size between 5 and 50 KB.
import { body, command, definition, doc, result, schema, surface } from "../src/demo/definitions/build.js";
import { gitLite } from "../src/demo/definitions/git-lite.js";
import { canonicalJson, type MiddlewareDefinition } from "../src/domain/definitions/index.js";
import { largeDefinition } from "../test/fixtures/definitions/large.js";

export const MIN_DEFINITION_BYTES = 5 * 1024;
export const MAX_DEFINITION_BYTES = 50 * 1024;

/** The smallest realistic tool: one command, the primitive types. About 4 KB stored. */
function singleCommand(name: string, version: string): MiddlewareDefinition {
  const root = command(name, { doc: doc(`Run ${name}.`), body: body({ result: result("string", "What it prints.") }) });
  return definition({ name, version, doc: doc(name), presented: surface(version, [root], schema([], "string")) });
}

/** Templates from small to large; each is used up to the size of the next one. */
const TEMPLATES: Array<(name: string, version: string) => MiddlewareDefinition> = [
  singleCommand,
  ...[1, 2, 3, 4, 5, 6, 7].map((nodes) => (name: string, version: string) => largeDefinition({ nodes, depth: 1, name, version })),
  gitLite,
];

/** Template sizes for a typical name; a name's own length only shifts them by a few bytes. */
const TEMPLATE_BYTES = TEMPLATES.map((template) => storedBytes(template("tool-0000", "1.0.0")));

const FILLER = "Reads its input, applies the configured rules and writes the result; exit codes and output formats are described per command. ";

/**
 * A valid definition named `name` whose stored form (canonical JSON) is `targetBytes` long, or as
 * close as the smallest template allows: the largest template that fits, its root command's
 * description padded with prose.
 */
export function definitionOfSize(name: string, version: string, targetBytes: number): MiddlewareDefinition {
  const fitting = TEMPLATE_BYTES.findLastIndex((bytes) => bytes <= targetBytes);
  const chosen = TEMPLATES[Math.max(0, fitting)]!(name, version);
  const missing = targetBytes - storedBytes(chosen);
  if (missing > 0) {
    const root = chosen.scope.value.presented.commands.nodes[0]!;
    root.doc.description = (root.doc.description + " " + FILLER.repeat(Math.ceil(missing / FILLER.length))).slice(0, root.doc.description.length + missing);
  }
  return chosen;
}

export function storedBytes(definition: MiddlewareDefinition): number {
  return Buffer.byteLength(canonicalJson(definition));
}

/** The size of release `index` of `count`: every size from MIN to MAX once, in a scrambled but fixed order. */
export function targetBytesOf(index: number, count: number): number {
  const scrambled = (index * 7919) % count; // 7919 is prime, so this visits every slot once when count < 7919
  return Math.round(MIN_DEFINITION_BYTES + ((MAX_DEFINITION_BYTES - MIN_DEFINITION_BYTES) * scrambled) / Math.max(1, count - 1));
}
