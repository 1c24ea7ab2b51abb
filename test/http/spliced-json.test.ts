// REST bodies with stored JSON texts spliced in are exactly what JSON.stringify writes.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { JsonSources, serializesTo } from "../../src/graphql/json-sources.js";
import { bodySha256 } from "../../src/http/body-digest.js";
import { encodeSplicing, utf8Of } from "../../src/http/rest/spliced-json.js";

const stringifySplicing = (value: unknown, sources: JsonSources) => encodeSplicing(value, sources).bytes.toString("utf8");

const definition = (name: string) => ({ name, commands: [{ path: ["run"], doc: "Runs \"it\" \u2028 now" }], flags: { verbose: true, level: 3.5 } });

function sourcesOf(...values: object[]): JsonSources {
  const sources = new JsonSources();
  for (const value of values) sources.note(value, JSON.stringify(value));
  return sources;
}

describe("encodeSplicing", () => {
  it("writes what JSON.stringify writes, with every noted value spliced in as its text", () => {
    const first = definition("first");
    const second = definition("second");
    const body = { values: [{ grant: { id: "g1", at: new Date(0) }, release: { definition: first } }, { release: { definition: second } }] };
    const sources = new JsonSources();
    // Texts that differ from the value's serialization show that the text, not the value, is written.
    sources.note(first, '{"spliced":1}');
    sources.note(second, '{"spliced":2}');
    expect(stringifySplicing(body, sources)).toBe(
      JSON.stringify({ values: [{ grant: { id: "g1", at: new Date(0) }, release: { definition: { spliced: 1 } } }, { release: { definition: { spliced: 2 } } }] }),
    );
  });

  it("splices a value shared by several members at each place", () => {
    const shared = definition("shared");
    const body = { a: shared, b: [shared, { c: shared }] };
    expect(stringifySplicing(body, sourcesOf(shared))).toBe(JSON.stringify(body));
  });

  it("leaves data that looks like its placeholder alone", () => {
    const noted = definition("noted");
    const body = { trap: "\u0000", other: '"\\u0000"', definition: noted, after: "\u0000x\u0000" };
    expect(stringifySplicing(body, sourcesOf(noted))).toBe(JSON.stringify(body));
  });

  it("splices a text noted as UTF-8 bytes as it splices a string", () => {
    const shown = definition("bytes \u00e9");
    const sources = new JsonSources();
    sources.note(shown, Buffer.from(JSON.stringify(shown), "utf8"));
    const body = { values: [{ definition: shown }, { other: "\u{1F680}" }] };
    expect(stringifySplicing(body, sources)).toBe(JSON.stringify(body));
  });

  it("is JSON.stringify when nothing was noted, or nothing noted is in the body", () => {
    const body = { values: [definition("plain")] };
    expect(stringifySplicing(body, new JsonSources())).toBe(JSON.stringify(body));
    expect(stringifySplicing(body, sourcesOf(definition("elsewhere")))).toBe(JSON.stringify(body));
  });
});

describe("utf8Of", () => {
  it("encodes the pieces as the UTF-8 of their concatenation, multi-byte characters included", () => {
    const pieces = ["[", '"caf\u00e9 \u{1F680}"', ",", "", '"\u2028"', "]"];
    expect(utf8Of(pieces).bytes.equals(Buffer.from(pieces.join(""), "utf8"))).toBe(true);
    expect(utf8Of(["only"]).bytes.toString("utf8")).toBe("only");
  });

  it("copies pieces given as UTF-8 bytes, between encoded ones", () => {
    const pieces = ["[", Buffer.from('"caf\u00e9 \u{1F680}"', "utf8"), ",", new Uint8Array(), Buffer.from('"\u2028"').subarray(0), "]"];
    const joined = pieces.map((piece) => (typeof piece === "string" ? piece : Buffer.from(piece).toString("utf8"))).join("");
    expect(utf8Of(pieces).bytes.equals(Buffer.from(joined, "utf8"))).toBe(true);
  });
});

describe("assembly keys (body-digest.ts)", () => {
  const bytesOf = (text: string) => Buffer.from(text, "utf8");

  it("name only bodies with cached byte pieces, and the same pieces the same way", () => {
    expect(utf8Of(["[", "1", "]"]).assemblyKey).toBeUndefined();
    const definition = bytesOf('{"a":1}');
    const first = utf8Of(["[", definition, "]"]);
    expect(first.assemblyKey).toEqual(expect.any(String));
    expect(utf8Of(["[", definition, "]"]).assemblyKey).toBe(first.assemblyKey);
    // Equal contents in another buffer are the same assembly.
    expect(utf8Of(["[", bytesOf('{"a":1}'), "]"]).assemblyKey).toBe(first.assemblyKey);
  });

  it("differ when any byte of the body differs, or the same bytes are cut into other pieces", () => {
    const keys = [
      utf8Of(["[", bytesOf('{"a":1}'), "]"]),
      utf8Of(["[", bytesOf('{"a":2}'), "]"]),
      utf8Of(["[ ", bytesOf('{"a":1}'), "]"]),
      utf8Of(["[", bytesOf('{"a":1}'), ",", bytesOf("2"), "]"]),
      utf8Of(["[", bytesOf('{"a":1}'), ",2]"]),
      utf8Of(["[", bytesOf('{"a"'), ":1}]"]),
    ].map((body) => body.assemblyKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("give the SHA-256 of the body itself, computed once per assembly", () => {
    const body = utf8Of(["[", bytesOf('{"a":1}'), "]"]);
    const sha256 = createHash("sha256").update(body.bytes).digest("base64url");
    expect(bodySha256(body.bytes, body.assemblyKey)).toBe(sha256);
    expect(bodySha256(body.bytes, body.assemblyKey)).toBe(sha256);
    expect(bodySha256(body.bytes)).toBe(sha256);
  });
});

describe("serializesTo", () => {
  it("holds for canonical JSON without integer-like keys, and not for objects with them", () => {
    expect(serializesTo(JSON.parse('{"a":1,"b":[true,null,"x"]}'), '{"a":1,"b":[true,null,"x"]}')).toBe(true);
    // Canonical order sorts "10" before "9"; a parsed object lists integer keys in numeric order.
    expect(serializesTo(JSON.parse('{"10":1,"9":2}'), '{"10":1,"9":2}')).toBe(false);
  });
});
