// A REST body as JSON.stringify writes it, with the values whose JSON text is known (JsonSources)
// written as that text rather than serialized again.
import { randomUUID } from "node:crypto";
import type { JsonSources } from "../../graphql/json-sources.js";

export function stringifySplicing(value: unknown, sources: JsonSources): string {
  if (sources.size === 0) return JSON.stringify(value);
  const texts: string[] = [];
  // Stands in for each known value; random per body, so no string in the data can look like it.
  const marker = `\u0000${randomUUID()}\u0000`;
  const skeleton = JSON.stringify(value, (_key, member: unknown) => {
    if (typeof member !== "object" || member === null) return member;
    const text = sources.textOf(member);
    if (text === undefined) return member;
    texts.push(text);
    return marker;
  });
  if (texts.length === 0) return skeleton;
  const parts = skeleton.split(JSON.stringify(marker));
  let body = parts[0]!;
  for (let index = 0; index < texts.length; index += 1) body += texts[index]! + parts[index + 1]!;
  return body;
}
