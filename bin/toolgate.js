#!/usr/bin/env node
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
