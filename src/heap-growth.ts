// On a host with memory to spare, V8 lets its old generation grow to up to 4 times what survived the
// last full garbage collection before it runs the next one, and gives nothing back while the server
// is idle: a server holding ~100 MiB sat anywhere between ~370 and ~660 MiB of RSS under the fuzz run
// (docs/reliability.md, "Memory"). Bounding the growth keeps RSS near what the server really holds,
// for more (short) full collections.
import { setFlagsFromString } from "node:v8";
import { heapGrowthPercent } from "./config.js";

/**
 * Lets the heap grow by TOOLGATE_HEAP_GROWTH_PERCENT over its live size between full collections (0:
 * V8's heuristic). The launcher calls it first thing (bin/toolgate.js); a bad value is left for
 * loadConfig to report.
 */
export function boundHeapGrowth(env: NodeJS.ProcessEnv = process.env): void {
  const percent = heapGrowthPercent.safeParse(env.TOOLGATE_HEAP_GROWTH_PERCENT || undefined);
  if (percent.success && percent.data > 0) setFlagsFromString(`--heap-growing-percent=${percent.data}`);
}
