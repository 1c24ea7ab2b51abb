// Responses made from bytes in hand: the body reads as those bytes, and the bytes stay known
// (uncopied) only while nobody has read the body.
import { describe, expect, it } from "vitest";
import { byteResponse, KnownBody, knownBodyOf, TextKeepingResponse } from "../../src/http/byte-body.js";

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

  it("answers the chunks of a body in hand, in order, as its body", async () => {
    const chunks = [Buffer.from('{"a":'), Buffer.from('"caf\u00e9"'), Buffer.from("}")];
    const response = byteResponse(new KnownBody(chunks, "tag"), { status: 200 });
    const known = knownBodyOf(response)!;
    expect(known.chunks).toBe(chunks);
    expect(known.tag).toBe("tag");
    expect(known.byteLength).toBe(Buffer.concat(chunks).byteLength);
    expect(await response.text()).toBe('{"a":"caf\u00e9"}');
  });

  it("joins the chunks once when asked for the bytes whole", () => {
    const body = new KnownBody([Buffer.from("ab"), Buffer.from("cd")]);
    expect(Buffer.from(body.bytes).toString()).toBe("abcd");
    expect(body.bytes).toBe(body.bytes);
    const single = Buffer.from("one");
    expect(new KnownBody([single]).bytes).toBe(single);
  });

  it("answers an empty body for no bytes", async () => {
    const response = byteResponse(new Uint8Array(0), { status: 200 });
    expect(await response.text()).toBe("");
  });

  it("reads as the same bytes through its stream, made when asked for, and then no longer knows them", async () => {
    const chunks = [Buffer.from("[1,"), Buffer.from(""), Buffer.from("2]")];
    const response = byteResponse(new KnownBody(chunks), { status: 200, headers: { "content-type": "application/json" } });
    expect(response).toBeInstanceOf(Response);
    const stream = response.body;
    expect(response.body).toBe(stream);
    expect(response.bodyUsed).toBe(false);
    expect(knownBodyOf(response)).toBeDefined();
    expect(await new Response(stream).text()).toBe("[1,2]");
    expect(response.bodyUsed).toBe(true);
    expect(knownBodyOf(response)).toBeUndefined();
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it("answers each way of reading a body once, and clones before a read", async () => {
    const bytes = Buffer.from('{"a":[1]}');
    const response = byteResponse(bytes, { status: 202, statusText: "Taken", headers: { "content-type": "application/json", "x-one": "1" } });
    const copy = response.clone();
    expect([copy.status, copy.statusText, copy.headers.get("x-one")]).toEqual([202, "Taken", "1"]);
    expect(await copy.json()).toEqual({ a: [1] });
    expect(Buffer.from(await response.clone().bytes()).equals(bytes)).toBe(true);
    expect(await (await response.clone().blob()).text()).toBe('{"a":[1]}');
    expect(await response.text()).toBe('{"a":[1]}');
    await expect(response.arrayBuffer()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
  });

  it("knows no bytes of a response made otherwise", () => {
    expect(knownBodyOf(new Response("text"))).toBeUndefined();
  });
});

describe("TextKeepingResponse (the Response Yoga makes its answers with)", () => {
  it("keeps a text body in hand as its UTF-8 bytes, with status and headers, and reads as that text once", async () => {
    const text = '{"data":{"name":"caf\u00e9"}}';
    const response = new TextKeepingResponse(text, { status: 200, headers: { "content-type": "application/json" } });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(Buffer.from(knownBodyOf(response)!.bytes).toString("utf8")).toBe(text);
    expect(await response.text()).toBe(text);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it("leaves any other body to Node's Response: none, or an event stream read as it comes", async () => {
    const empty = new TextKeepingResponse(null, { status: 204 });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    expect(knownBodyOf(empty)).toBeUndefined();
    const events = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
        controller.close();
      },
    });
    const streamed = new TextKeepingResponse(events, { headers: { "content-type": "text/event-stream" } });
    expect(knownBodyOf(streamed)).toBeUndefined();
    expect(await streamed.text()).toBe("data: 1\n\n");
  });

  it("passes Response's static methods through", async () => {
    expect(await TextKeepingResponse.json({ ok: true }).json()).toEqual({ ok: true });
  });
});
