// Turns zod's issues into ours: one issue per unknown key, our wording (see messages.ts).
import type { z } from "zod";
import type { Issue, PathSegment } from "./issues.js";

export function structuralIssues(error: z.ZodError): Issue[] {
  return error.issues.flatMap((issue): Issue[] => {
    const path = issue.path.map((segment): PathSegment => (typeof segment === "number" ? segment : String(segment)));
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path, message: `unknown field ${JSON.stringify(key)}` }));
    }
    return [{ path, message: issue.message }];
  });
}
