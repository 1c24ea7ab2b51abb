// A stored definition's presented surface is found by scanning its canonical text, and the range is
// exactly where the surface's JSON.stringify serialization lies: the same as parsing the text,
// serializing the surface and looking for it (the oracle below), over generated definitions, and
// falling back to that whenever the text's bytes might not be JSON.stringify's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/domain/definitions/index.js";
import { presentedRange, scanPresentedRange, type ByteRange } from "../../src/domain/definitions/presented-range.js";

/** The range by parsing: where JSON.stringify of the parsed surface first appears in the text, if anywhere. */
function parsedRange(utf8: Buffer): ByteRange | null {
  const text = utf8.toString("utf8");
  const presented = JSON.stringify((JSON.parse(text) as { scope: { value: { presented: unknown } } }).scope.value.presented);
  const start = text.indexOf(presented);
  if (start < 0) return null;
  const byteStart = Buffer.byteLength(text.slice(0, start), "utf8");
  return { start: byteStart, end: byteStart + Buffer.byteLength(presented, "utf8") };
}

const siblings = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const keyish = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("0", "1", "10", "9", "01", "-1", "a", "é", "\u2028", '"', "\\"));
const surface = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false, 0, -0, 1, -1, 0.5, 1e21, 1e-7, 123456789012345, 2 ** 53 + 2, -1.7976931348623157e308),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(keyish, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** The bytes a range stands for: what a REST body carries (two ranges over the same bytes are as good). */
const bytesAt = (utf8: Buffer, range: ByteRange | null) => (range ? utf8.subarray(range.start, range.end).toString("utf8") : null);

const definitionText = (others: Record<string, unknown>[], presented: unknown) =>
  Buffer.from(canonicalJson({ ...others[0], scope: { ...others[1], value: { ...others[2], presented } } }), "utf8");

describe("the presented surface's range in a stored definition", () => {
  it("is where parsing finds JSON.stringify's serialization of the surface, for generated definitions", () => {
    let scanned = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.tuple(siblings, siblings, siblings), surface, (others, presented) => {
        const utf8 = definitionText(others, presented);
        expect(bytesAt(utf8, presentedRange(utf8))).toBe(bytesAt(utf8, parsedRange(utf8)));
        const scan = scanPresentedRange(utf8);
        // What the scan vouches for is the serialization of the surface, at the surface.
        if (scan) expect(bytesAt(utf8, scan)).toBe(JSON.stringify(JSON.parse(utf8.toString("utf8")).scope.value.presented));
        runs += 1;
        if (scan) scanned += 1;
      }),
      { numRuns: 2000, seed: 20261128 },
    );
    // Most were scanned; the others hold keys V8 reorders (array indexes), so parsing decided.
    expect(scanned / runs).toBeGreaterThan(0.5);
  });

  it("finds the surface of a real-sized definition at the bytes of its serialization", () => {
    const presented = {
      commands: Array.from({ length: 200 }, (_, index) => ({
        name: `cmd-${index}`,
        doc: 'Runs "it" \u2028 now – café',
        flags: [index, -index / 3, true, null],
      })),
    };
    const utf8 = definitionText(
      [{ apiVersion: "v1", metadata: { name: "tool", escaped: 'quote " and \\ backslash' } }, { kind: "component" }, { extra: [1, 2] }],
      presented,
    );
    expect(scanPresentedRange(utf8)).toBeDefined();
    expect(bytesAt(utf8, presentedRange(utf8))).toBe(JSON.stringify(JSON.parse(canonicalJson(presented))));
  });

  it("falls back to parsing when the bytes are not what JSON.stringify writes, and finds nothing where there is no surface", () => {
    const texts = [
      '{"scope":{"value":{"presented":{"b":1,"10":2}}}}', // an array-index key: V8 puts it first
      '{"scope":{"value":{"presented":{"a":"caf\\u00e9"}}}}', // an escape JSON.stringify does not write
      '{"scope":{"value":{"presented":{"a":1.0}}}}', // a number JSON.stringify writes as 1
      '{"scope":{"value":{"presented": {"a":1}}}}', // whitespace
      '{"scope":{"value":{"other":{"a":1}}}}',
    ];
    for (const text of texts) {
      const utf8 = Buffer.from(text, "utf8");
      expect(scanPresentedRange(utf8), text).toBeUndefined();
      expect(bytesAt(utf8, presentedRange(utf8)), text).toBe(text.includes("presented") ? bytesAt(utf8, parsedRange(utf8)) : null);
    }
    // Parsing finds no JSON.stringify serialization of these in their text: the surface is served as its value.
    expect(presentedRange(Buffer.from(texts[0]!, "utf8"))).toBeNull();
    expect(presentedRange(Buffer.from(texts[2]!, "utf8"))).toBeNull();
  });
});
