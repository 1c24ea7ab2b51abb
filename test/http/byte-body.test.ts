// Responses made from bytes in hand: the body reads as those bytes, and the bytes stay known
// (uncopied) only while nobody has read the body.
import { describe, expect, it } from "vitest";
import { byteResponse, knownBodyOf } from "../../src/http/byte-body.js";

describe("byteResponse", () => {
  it("answers with the bytes as its body, keeping status and headers", async () => {
    const bytes = Buffer.from('{"caf\u00e9":true}', "utf8");
    const response = byteResponse(bytes, { status: 201, headers: { "content-type": "application/json" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(knownBodyOf(response)?.bytes).toBe(bytes);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect(knownBodyOf(response)).toBeUndefined();
  });

  it("answers an empty body for no bytes", async () => {
    const response = byteResponse(new Uint8Array(0), { status: 200 });
    expect(await response.text()).toBe("");
  });

  it("knows no bytes of a response made otherwise", () => {
    expect(knownBodyOf(new Response("text"))).toBeUndefined();
  });
});
