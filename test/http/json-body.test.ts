// REST bodies are what JSON.stringify writes, with stored JSON texts standing in them as their own bytes.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonText } from "../../src/graphql/json-text.js";
import { encodeJsonBody } from "../../src/http/rest/json-body.js";

const textOf = (value: unknown) => Buffer.from(encodeJsonBody(value).bytes).toString("utf8");
const tagOf = (value: unknown) => encodeJsonBody(value).tag;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("base64url");
const stored = (text: string) => new JsonText(Buffer.from(text, "utf8"));

const definition = (name: string) => ({ name, commands: [{ path: ["run"], doc: 'Runs "it" \u2028 now' }], flags: { verbose: true, level: 3.5 } });

describe("encodeJsonBody", () => {
  it("writes what JSON.stringify writes for plain values: dates, undefined members, nulls, non-finite numbers, unicode", () => {
    const values = [
      { a: 1, b: undefined, c: null, d: [undefined, () => 1, Number.NaN, -0, 1e21], e: new Date(0), f: 'caf\u00e9 \u{1F680} \u2028 \u0000 "q"' },
      [],
      {},
      "text",
      3.25,
      true,
      null,
      { nested: { deeper: [{}, [], { x: [1, { y: "z" }] }] }, toJSONish: { toJSON: () => ({ replaced: true }) } },
      { "10": 1, "9": 2, key: definition("plain") },
    ];
    for (const value of values) expect(textOf(value)).toBe(JSON.stringify(value));
  });

  it("carries each stored text's own bytes as a chunk of the body, not a copy of them", () => {
    const first = stored('{"spliced":1}');
    const body = encodeJsonBody({ grants: [{ definition: first }, { definition: first, name: "caf\u00e9" }] });
    expect(body.chunks.filter((chunk) => chunk === first.utf8)).toHaveLength(2);
    expect(body.byteLength).toBe(body.chunks.reduce((length, chunk) => length + chunk.byteLength, 0));
    expect(Buffer.from(body.bytes).toString("utf8")).toBe('{"grants":[{"definition":{"spliced":1}},{"definition":{"spliced":1},"name":"caf\u00e9"}]}');
  });

  it("puts each stored text in place of its value, wherever it appears", () => {
    const first = stored('{"spliced":1}');
    const second = stored('{"spliced":"caf\u00e9 \u{1F680}"}');
    const body = {
      values: [
        { grant: { id: "g1", at: new Date(0) }, release: { definition: first } },
        { release: { definition: second }, again: first },
      ],
    };
    const expected = {
      values: [
        { grant: { id: "g1", at: new Date(0) }, release: { definition: { spliced: 1 } } },
        { release: { definition: { spliced: "caf\u00e9 \u{1F680}" } }, again: { spliced: 1 } },
      ],
    };
    expect(textOf(body)).toBe(JSON.stringify(expected));
  });

  it("writes what JSON.stringify writes of the parsed values, for any JSON with stored texts anywhere in it", () => {
    const storedOrPlain = fc.oneof(
      fc.jsonValue(),
      fc.jsonValue().map((value) => stored(JSON.stringify(value))),
    );
    const body = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, storedOrPlain, fc.array(tie("node")), fc.dictionary(fc.string(), tie("node"))),
    })).node;
    const parsedOf = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
    fc.assert(
      fc.property(body, (value) => {
        expect(textOf(value)).toBe(JSON.stringify(parsedOf(value)));
      }),
      { numRuns: 500 },
    );
  });

  it("keeps text that looks like the stand-ins stored texts are written as", () => {
    const lookalikes = ["\u0000", "\u0000abc:0\u0000", '"\\u0000x:1\\u0000"', "\u0000".repeat(3)];
    const body = { lookalikes, definition: stored('{"a":"\\u0000:0\\u0000"}'), after: lookalikes };
    expect(textOf(body)).toBe(JSON.stringify({ lookalikes, definition: { a: "\u0000:0\u0000" }, after: lookalikes }));
  });

  it("gives a stored text to any other serializer as its parsed value", () => {
    const text = stored('{"b":[1,"\u00e9"],"a":null}');
    expect(JSON.stringify({ definition: text })).toBe('{"definition":{"b":[1,"\u00e9"],"a":null}}');
  });

  describe("its ETag hash", () => {
    const identified = (text: string, identity: string) => new JsonText(Buffer.from(text, "utf8"), identity);

    it("is the SHA-256 of the bytes when no stored text has an identity", () => {
      for (const value of [{ a: "caf\u00e9", b: [1, null] }, { definition: stored('{"x":1}'), around: "text" }, []]) {
        const { bytes, tag } = encodeJsonBody(value);
        expect(tag).toBe(sha256(bytes));
      }
    });

    it("is equal for equal bodies and differs when the text around, or a stored text's identity, differs", () => {
      const body = (identity: string, name: string) => ({
        grants: [{ name, definition: identified('{"spliced":1}', identity) }, { definition: identified('{"b":2}', "b") }],
      });
      expect(tagOf(body("a", "first"))).toBe(tagOf(body("a", "first")));
      const tags = [tagOf(body("a", "first")), tagOf(body("c", "first")), tagOf(body("a", "other")), tagOf({ grants: [] })];
      expect(new Set(tags).size).toBe(tags.length);
    });

    it("cannot be met by text that spells an identity out", () => {
      const spliced = { before: identified('{"x":1}', "sha256:abc") };
      const spelled = encodeJsonBody({ before: "\u0000sha256:abc\u0000" });
      expect(encodeJsonBody(spliced).tag).not.toBe(spelled.tag);
    });
  });
});
