// Scalar's standalone bundle as /docs serves it: the installed file, with one change. The zod it
// carries asks at load time whether the page may compile code, by trying `new Function("")`. The
// pages' policy forbids eval (security-headers.ts), so the answer is always no and zod parses without
// compiling; but the browser reports the refused attempt as a Content-Security-Policy violation on
// every visit. Scalar has no setting for it (zod's `jitless` is set through a zod instance the bundle
// does not expose), so the probe is replaced by its answer under our policy: the same behaviour,
// nothing refused, nothing reported.
import { readFile } from "node:fs/promises";

const EVAL_PROBE = /try\{return new Function\(""\),!0\}catch\(\w+\)\{return!1\}/g;

/** `bundle` with the probe answering false; unchanged when a new version writes it differently (the browser test then sees the violation again). */
export function withoutEvalProbe(bundle: string): string {
  return bundle.replace(EVAL_PROBE, "return!1");
}

export async function readScalarBundle(file: string): Promise<Uint8Array> {
  return Buffer.from(withoutEvalProbe(await readFile(file, "utf8")));
}
