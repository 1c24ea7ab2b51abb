// Arbitrary JSON (a positional's `default`), with a nesting limit: the rest of a definition
// has a fixed depth, and this keeps every later recursive walk (digests, storage) safe.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export const MAX_JSON_DEPTH = 64;

export function isJsonValue(value: unknown, maxDepth = MAX_JSON_DEPTH): value is JsonValue {
  const pending: Array<[value: unknown, depth: number]> = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current === "string" || typeof current === "boolean") continue;
    if (typeof current === "number") {
      if (!Number.isFinite(current)) return false;
      continue;
    }
    if (typeof current !== "object" || depth >= maxDepth) return false;
    if (Array.isArray(current)) {
      for (const item of current) pending.push([item, depth + 1]);
      continue;
    }
    const prototype = Object.getPrototypeOf(current);
    if (prototype !== Object.prototype && prototype !== null) return false;
    for (const item of Object.values(current)) pending.push([item, depth + 1]);
  }
  return true;
}
