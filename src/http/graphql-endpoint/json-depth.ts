// Parsed JSON nested deeper than MAX_JSON_DEPTH is refused at the door (400): the code that walks
// request JSON later (GraphQL coercion, canonical JSON, JSON.stringify) recurses, and 100,000 nested
// brackets overflowed its stack into a 500. Real definitions nest a few dozen levels at most.
const MAX_JSON_DEPTH = 128;

/** Measured without recursion, so the check itself cannot overflow. */
export function jsonDepthExceeds(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

export const tooDeep = (where: string) => `${where}: JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
