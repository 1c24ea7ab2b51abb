// What the bundle holds in place of fast-json-stringify. graphql-jit imports it for its
// `customJSONSerializer` option, which toolgate never sets (src/graphql/compiled-execution.ts):
// the package and the ajv it loads would take ~8 MB of a replica's memory for nothing.
export default function fastJsonStringify() {
  throw new Error("fast-json-stringify is not in toolgate's bundle: graphql-jit's customJSONSerializer is not used");
}
