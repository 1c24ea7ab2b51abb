// What the bundle that bin/toolgate.js runs must hold, and answers only the bundle can get wrong.
// A dependency's copy of a library that the sources share (graphql's CommonJS build beside its ES
// modules) passes every test that imports src/, then fails `instanceof` in the shipped server.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

describe("the bundle bin/toolgate.js runs", () => {
  it("holds one copy of graphql: its ES modules only", () => {
    const inputs = JSON.parse(readFileSync(path.resolve("dist/bundle/inputs.json"), "utf8")) as string[];
    const graphqlFiles = inputs.filter((input) => input.startsWith("node_modules/graphql/"));
    expect(graphqlFiles.length).toBeGreaterThan(50);
    expect(graphqlFiles.filter((file) => !file.endsWith(".mjs"))).toEqual([]);
  });

  it("loads Prisma's query compilers from .wasm files, not from modules of base64 text", () => {
    const inputs = JSON.parse(readFileSync(path.resolve("dist/bundle/inputs.json"), "utf8")) as string[];
    expect(inputs.filter((input) => input.includes("wasm-base64"))).toEqual([]);
    for (const provider of ["postgresql", "sqlite"]) {
      const wasm = readFileSync(path.resolve(`dist/bundle/query_compiler_fast_bg.${provider}.wasm`));
      expect(WebAssembly.validate(wasm)).toBe(true);
    }
  });
});

describeEachDatabase("GraphQL syntax errors on the shipped build", (provider) => {
  let service: TestService;
  let server: ServingToolgate;

  beforeAll(async () => {
    service = await startTestService(provider);
    server = await serveToolgate({ TOOLGATE_DATABASE_URL: service.databaseUrl, TOOLGATE_ADMIN_TOKEN: service.adminToken });
  }, 120_000);
  afterAll(async () => {
    await server?.ensureDead();
    await service?.stopAndDrop();
  });

  const cases = [
    { name: "POST, application/graphql-response+json", status: 400, request: () => post("application/graphql-response+json") },
    { name: "POST, application/json (the legacy media type answers 200)", status: 200, request: () => post("application/json") },
    {
      name: "GET ?query=%7B",
      status: 400,
      request: () => fetch(`${server.url}/graphql?query=%7B`, { headers: { accept: "application/graphql-response+json" } }),
    },
  ];
  const post = (accept: string) =>
    fetch(`${server.url}/graphql`, { method: "POST", headers: { "content-type": "application/json", accept }, body: JSON.stringify({ query: "{" }) });

  for (const { name, status, request } of cases) {
    it(`answers REQUEST_INVALID naming the syntax error: ${name}`, async () => {
      const response = await request();
      expect(response.status).toBe(status);
      const body = (await response.json()) as { errors: { message: string; extensions: { code: string; problems: string[] } }[] };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.extensions.code).toBe("REQUEST_INVALID");
      expect(body.errors[0]!.message).toBe("Syntax Error: Expected Name, found <EOF>.");
    });
  }

  it("logs no error for them", () => {
    expect(server.stdout() + server.stderr()).not.toMatch(/"level":(50|60)/);
  });
});
