import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  METADATA_VERSION,
  metadataDigest,
  sourceDigest,
  validateDefinition,
  type MiddlewareDefinition,
} from "../../src/domain/definitions/index.js";
import { gitLite, jsonFormat } from "../fixtures/definitions/index.js";

/** The same value with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reversedKeys(v)]),
    );
  }
  return value;
}

describe("canonicalJson", () => {
  it("sorts keys, keeps array order and drops whitespace", () => {
    expect(canonicalJson({ b: 1, a: [3, { d: null, c: "x" }, true] })).toBe('{"a":[3,{"c":"x","d":null},true],"b":1}');
  });

  it("orders keys by UTF-16 code units, not code points", () => {
    // U+1F600 is stored as the surrogates D83D DE00, which sort before U+FB33.
    expect(canonicalJson({ "\ufb33": 3, "\u{1f600}": 2, "\u20ac": 1 })).toBe('{"\u20ac":1,"\u{1f600}":2,"\ufb33":3}');
  });

  it("writes numbers and strings as JSON.stringify does", () => {
    expect(canonicalJson([1e21, 0.1, -0, 10, "tab\there", "é"])).toBe('[1e+21,0.1,0,10,"tab\\there","é"]');
  });

  it("rejects values JSON cannot carry", () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson(10n)).toThrow(TypeError);
  });
});

describe("metadataDigest", () => {
  it("is sha256 over the domain, the metadata version and the canonical definition", () => {
    const definition = jsonFormat();
    const expected = createHash("sha256")
      .update(`toolgate:tool-middleware-metadata:v1\u00000.1.0\u0000${canonicalJson(definition)}`)
      .digest("hex");
    expect(METADATA_VERSION).toBe("0.1.0");
    expect(metadataDigest(definition)).toBe(`sha256:${expected}`);
  });

  it("is the same whatever the key order", () => {
    const shuffled = reversedKeys(gitLite()) as MiddlewareDefinition;
    expect(JSON.stringify(shuffled)).not.toBe(JSON.stringify(gitLite()));
    expect(metadataDigest(shuffled)).toBe(metadataDigest(gitLite()));
  });

  it("is the same for a validated copy of shuffled input", () => {
    const result = validateDefinition(reversedKeys(gitLite()), "definition");
    expect(result.ok && metadataDigest(result.definition)).toBe(metadataDigest(gitLite()));
  });

  it("changes when the content changes", () => {
    const changed = gitLite();
    changed.scope.value.presented.commands.nodes[1]!.doc.summary += ".";
    expect(metadataDigest(changed)).not.toBe(metadataDigest(gitLite()));
    expect(metadataDigest(gitLite("git-lite", "2.43.1"))).not.toBe(metadataDigest(gitLite()));
  });
});

describe("sourceDigest", () => {
  const source = { componentId: "0190f3c4-5b6e-7a8b-9c0d-1e2f3a4b5c6d", componentRevision: 7, componentName: "git-lite" };

  it("is sha256 over the domain and the component coordinates", () => {
    const expected = createHash("sha256")
      .update("toolgate:tool-middleware-source:v1\u00000190f3c4-5b6e-7a8b-9c0d-1e2f3a4b5c6d\u00007\u0000git-lite")
      .digest("hex");
    expect(sourceDigest(source)).toBe(`sha256:${expected}`);
    // Pinned: computed once with `printf … | sha256sum`.
    expect(sourceDigest(source)).toBe("sha256:84829f2d27ded543daeb9f4ccd79b7551e5ff16625aae1950b2e60fde43559e9");
  });

  it("changes with the revision", () => {
    expect(sourceDigest({ ...source, componentRevision: 8 })).not.toBe(sourceDigest(source));
  });
});
