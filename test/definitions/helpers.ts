// Shared helpers: validate a mutated copy of a fixture and read back its issue strings.
import { validateDefinition } from "../../src/domain/definitions/index.js";
import { gitLite } from "../fixtures/definitions/index.js";

/** A plain-JSON copy of a definition that tests may break in any way. */
export type Draft = any;

export const PRESENTED = "definition.scope.value.presented";
export const NODES = `${PRESENTED}.commands.nodes`;

export function draftOf(definition: unknown = gitLite()): Draft {
  return JSON.parse(JSON.stringify(definition));
}

/** Issues of git-lite after `mutate`, validated under base path "definition". */
export function issuesAfter(mutate: (draft: Draft) => void, basePath = "definition"): string[] {
  const draft = draftOf();
  mutate(draft);
  const result = validateDefinition(draft, basePath);
  return result.ok ? [] : result.issues;
}
