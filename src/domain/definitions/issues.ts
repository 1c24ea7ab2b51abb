// An issue found in a definition: where (path segments from the definition root) and what.

export type PathSegment = string | number;
export type Path = readonly PathSegment[];

export interface Issue {
  path: Path;
  message: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `basePath` + segments, JSON-path style: `publications[0].definition.scope.kind`. */
function formatPath(basePath: string, path: Path): string {
  let out = basePath;
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === "" ? "(root)" : out;
}

export function formatIssue(basePath: string, issue: Issue): string {
  return `${formatPath(basePath, issue.path)}: ${issue.message}`;
}
