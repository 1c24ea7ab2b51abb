#!/usr/bin/env node
// The `toolgate` command: runs the TypeScript sources through tsx (no build step).
import { register } from "tsx/esm/api";

register();
// Before the sources load: V8 sets its heap limits at each collection, and some run while they load.
const { boundHeapGrowth } = await import("../src/heap-growth.ts");
boundHeapGrowth();
await import("../src/cli/main.ts");
