// Type refs must name a def of the schema they belong to, and def ids are unique per schema.
import type { Issue, Path } from "./issues.js";
import type { CommandNode, Schema, TypeRef } from "./schema.js";

export interface TypeRefAt {
  path: Path;
  ref: TypeRef;
}

/** Issues of a schema on its own (duplicate ids, refs in defs and root) and its def ids. */
export function schemaIssues(schema: Schema, at: Path): { ids: ReadonlySet<string>; issues: Issue[] } {
  const ids = new Set<string>();
  const issues: Issue[] = [];
  schema.defs.forEach((def, index) => {
    if (ids.has(def.id)) {
      issues.push({ path: [...at, "defs", index, "id"], message: `duplicate type id ${JSON.stringify(def.id)}` });
    }
    ids.add(def.id);
  });
  const refs: TypeRefAt[] = [
    ...schema.defs.map((def, index) => ({ path: [...at, "defs", index, "body"], ref: def.body })),
    { path: [...at, "root"], ref: schema.root },
  ];
  issues.push(...unresolvedRefIssues(refs, ids));
  return { ids, issues };
}

export function unresolvedRefIssues(refs: readonly TypeRefAt[], ids: ReadonlySet<string>): Issue[] {
  return refs
    .filter(({ ref }) => !ids.has(ref.value.id))
    .map(({ path, ref }) => ({
      path: [...path, "value", "id"],
      message: `unknown type id ${JSON.stringify(ref.value.id)}`,
    }));
}

/** Every type ref used by a command node, with its path. */
export function nodeTypeRefs(node: CommandNode, at: Path): TypeRefAt[] {
  const { body } = node;
  return [
    ...node.globals.options.map((o, i) => ({ path: [...at, "globals", "options", i, "shape", "value"], ref: o.shape.value })),
    ...body.options.map((o, i) => ({ path: [...at, "body", "options", i, "shape", "value"], ref: o.shape.value })),
    ...body.positionals.fixed.map((p, i) => ({ path: [...at, "body", "positionals", "fixed", i, "type_"], ref: p.type_ })),
    { path: [...at, "body", "positionals", "tail", "item_type"], ref: body.positionals.tail.item_type },
    { path: [...at, "body", "result", "type_"], ref: body.result.type_ },
    ...body.errors.map((e, i) => ({ path: [...at, "body", "errors", i, "payload"], ref: e.payload })),
  ];
}
