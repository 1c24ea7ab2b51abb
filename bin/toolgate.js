#!/bin/sh
":" //; exec env MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}" MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}" node --max-semi-space-size=8 --liftoff-only "$0" "$@"
// Run as a command (`toolgate`, `npx toolgate`, `bin/toolgate.js`) the line above is shell: it starts
// Node with a smaller memory footprint (docs/performance.md, "Memory"): glibc's malloc with 2 arenas
// that hands blocks over 128 KiB straight back to the system, 8 MiB young-generation semi-spaces, and
// WebAssembly (Prisma's query compiler) kept on V8's baseline compiler: optimising it cost 25-40 MB
// of native memory and saved no measurable CPU per request. Operators' own MALLOC_* values win. For
// Node the line is a string and a comment, so `node bin/toolgate.js` runs the same program with
// Node's defaults.
// The `toolgate` command: runs the bundled JavaScript in dist/bundle/ (built by `npm install`, `npm start`,
// `npm test` and `npm run build`). `npm run toolgate` runs the TypeScript sources through tsx instead.
import { existsSync } from "node:fs";

const entry = new URL("../dist/bundle/toolgate.js", import.meta.url);
if (!existsSync(entry)) {
  console.error("toolgate is not built: run `npm run build` (or `npm install`) in the project directory");
  process.exit(2);
}
// Before the sources load: V8 sets its heap limits at each collection, and some run while they load.
const { boundHeapGrowth } = await import(new URL("../dist/bundle/heap-growth.js", import.meta.url).href);
boundHeapGrowth();
await import(entry.href);
