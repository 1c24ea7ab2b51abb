// A release's presented surface goes into REST bodies as a slice of its stored text, not serialized
// again, and only when that slice is exactly what JSON.stringify would write.
import { describe, expect, it } from "vitest";
import { canonicalJson, metadataDigest, type MiddlewareDefinition } from "../../src/domain/definitions/index.js";
import { JsonSources } from "../../src/graphql/json-sources.js";
import { releasePresentedSurface } from "../../src/graphql/types/tool-release.js";
import { encodeSplicing } from "../../src/http/rest/spliced-json.js";
import { definitionFor } from "../fixtures/definitions/index.js";

/** A release row as the database gives it: the canonical text, read anew at every request. */
const storedRow = (definition: unknown, digest: string) => ({ definition: canonicalJson(definition).slice(0), metadataDigest: digest });

describe("releasePresentedSurface", () => {
  const definition = definitionFor("git-lite", "2.43.0");
  const digest = metadataDigest(definition);

  it("hands out scope.value.presented with its text noted, a part of the stored text", () => {
    const row = storedRow(definition, digest);
    const sources = new JsonSources();
    const presented = releasePresentedSurface(row, sources);
    expect(presented).toEqual(definition.scope.value.presented);
    expect(sources.textOf(presented)).toBe(JSON.stringify(presented));
    expect(row.definition).toContain(sources.textOf(presented));
    const body = { id: "r", definition: presented };
    expect(encodeSplicing(body, sources).toString("utf8")).toBe(JSON.stringify(body));
  });

  it("notes the same text for every later request, each with its own row and its own sources", () => {
    for (let request = 0; request < 3; request++) {
      const sources = new JsonSources();
      const presented = releasePresentedSurface(storedRow(definition, digest), sources);
      expect(sources.size).toBe(1);
      // The stored (canonical) text of the surface, which is what the parsed surface serializes to.
      expect(sources.textOf(presented)).toBe(canonicalJson(definition.scope.value.presented));
      expect(sources.textOf(presented)).toBe(JSON.stringify(presented));
    }
  });

  it("notes nothing when the surface would serialize differently from its stored text (integer-like keys)", () => {
    // Not a valid definition (the schema allows no such keys today): the guard for when one could.
    const odd = { scope: { value: { presented: { "10": "ten", "9": "nine" } } } } as unknown as MiddlewareDefinition;
    const sources = new JsonSources();
    const presented = releasePresentedSurface(storedRow(odd, "sha256:integer-like-keys"), sources);
    expect(sources.textOf(presented)).toBeUndefined();
    const body = { definition: presented };
    expect(encodeSplicing(body, sources).toString("utf8")).toBe(JSON.stringify(body));
  });
});
