// REST bodies are what JSON.stringify writes, with stored JSON texts copied in as their bytes.
import { describe, expect, it } from "vitest";
import { JsonText } from "../../src/graphql/json-text.js";
import { encodeJsonBody } from "../../src/http/rest/json-body.js";

const textOf = (value: unknown) => encodeJsonBody(value).toString("utf8");
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

  it("copies each stored text in place of its value, wherever it appears", () => {
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

  it("gives a stored text to any other serializer as its parsed value", () => {
    const text = stored('{"b":[1,"\u00e9"],"a":null}');
    expect(JSON.stringify({ definition: text })).toBe('{"definition":{"b":[1,"\u00e9"],"a":null}}');
  });
});
