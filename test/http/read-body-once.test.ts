// /graphql reads a request body once (src/http/graphql-endpoint/plugins/read-body-once.ts): the JSON app.ts read within the
// cap is parsed from that text, every other media type Yoga supports is parsed from a copy, and bad
// bodies are refused as Yoga refuses them.
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

describeEachDatabase("/graphql request bodies", (provider) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(provider);
  });
  afterAll(() => service?.stopAndDrop());

  async function post(contentType: string, body: string | Uint8Array<ArrayBuffer>) {
    const response = await fetch(`${service.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${service.adminToken}`, accept: "application/json", "content-type": contentType },
      body,
    });
    return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: { message: string; extensions: { code: string } }[] } };
  }

  const ME = { me: { email: "admin@toolgate.local" } };

  for (const contentType of ["application/json", "application/json; charset=utf-8", "application/graphql+json", "application/json, text/plain"]) {
    it(`runs a JSON body sent as ${contentType}`, async () => {
      expect(await post(contentType, JSON.stringify({ query: "{ me { email } }" }))).toEqual({ status: 200, body: { data: ME } });
    });
  }

  it("runs a JSON body that starts with a byte order mark, as fetch's json() reads it", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(JSON.stringify({ query: "{ me { email } }" }))]);
    expect(await post("application/json", bytes)).toEqual({ status: 200, body: { data: ME } });
  });

  it("runs a body in a media type Yoga parses itself (form-encoded), authenticated by its token", async () => {
    const form = new URLSearchParams({ query: "query ($show: Boolean!) { me { email @include(if: $show) } }", variables: JSON.stringify({ show: true }) });
    expect(await post("application/x-www-form-urlencoded", form.toString())).toEqual({ status: 200, body: { data: ME } });
  });

  it("refuses malformed JSON and JSON that is not an object with 400 REQUEST_INVALID naming the problem", async () => {
    const cases: [string, RegExp][] = [
      ["{bad", /invalid JSON/],
      ["", /invalid JSON/],
      ["null", /expected to be object but received null/],
      ["42", /expected to be object but received number/],
      ['"query"', /expected to be object but received string/],
    ];
    for (const [body, problem] of cases) {
      const result = await post("application/json", body);
      expect(result.status, body).toBe(400);
      expect(result.body.errors?.[0]?.extensions.code, body).toBe("REQUEST_INVALID");
      expect(result.body.errors?.[0]?.message, body).toMatch(problem);
    }
  });
});
