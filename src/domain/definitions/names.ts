// Name rules shared by every named thing in a definition: lower-kebab-case and uniqueness.
import type { Issue, Path } from "./issues.js";

export const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export interface NameAt {
  path: Path;
  name: string;
}

function isKebab(name: string): boolean {
  return KEBAB.test(name);
}

export function kebabIssues(entries: readonly NameAt[]): Issue[] {
  return entries.filter(({ name }) => !isKebab(name)).map(({ path, name }) => ({ path, message: `${JSON.stringify(name)} is not lower-kebab-case` }));
}

/**
 * Entries sharing one namespace, in order: each name already `taken` is reported with
 * `duplicate(name)`; `taken` is updated so callers can chain namespaces.
 */
export function duplicateIssues(entries: readonly NameAt[], duplicate: (name: string) => string, taken: Set<string> = new Set()): Issue[] {
  const issues: Issue[] = [];
  for (const { path, name } of entries) {
    if (taken.has(name)) issues.push({ path, message: duplicate(name) });
    else taken.add(name);
  }
  return issues;
}
