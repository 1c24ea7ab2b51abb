// RFC 7235: the authentication scheme is case-insensitive, so `bearer`, `Bearer` and `BEARER`
// are the same credentials, on REST and on GraphQL alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

describeEachDatabase("Authorization scheme", (provider) => {
  let service: TestService;
  let adminId: string;
  beforeAll(async () => {
    service = await startTestService(provider);
    adminId = (await service.db.account.findFirstOrThrow({ where: { admin: true } })).id;
  });
  afterAll(() => service?.stopAndDrop());

  const rest = (authorization: string) => client(service.url).request("GET", `/v1/accounts/${adminId}/tool-releases`, undefined, { authorization });
  const graphql = (authorization: string) =>
    client(service.url).request("POST", "/graphql", { query: "{ me { id: uuid } }" }, { authorization, accept: "application/json" });

  for (const scheme of ["bearer", "Bearer", "BEARER", "bEaReR"]) {
    describe(`"${scheme} <token>"`, () => {
      it("authenticates a REST request", async () => {
        const result = await rest(`${scheme} ${service.adminToken}`);
        expect(result.status).toBe(200);
        expect(result.body).toEqual({ values: [], nextCursor: null });
      });

      it("authenticates a GraphQL request", async () => {
        const result = await graphql(`${scheme} ${service.adminToken}`);
        expect(result.status).toBe(200);
        expect(result.body).toEqual({ data: { me: { id: adminId } } });
      });
    });
  }

  it("accepts more than one space between scheme and token (1*SP)", async () => {
    expect((await rest(`bearer   ${service.adminToken}`)).status).toBe(200);
  });

  it("still rejects other schemes, a scheme without a token and a wrong token with 401", async () => {
    for (const authorization of [`Basic ${service.adminToken}`, "bearer", `bearer${service.adminToken}`, "bearer tg_unknown"]) {
      const result = await rest(authorization);
      expect(result.status, authorization).toBe(401);
      expect(result.body.code).toBe("AUTH_UNAUTHORIZED");
      expect((await graphql(authorization)).body.errors[0].extensions.code).toBe("AUTH_UNAUTHORIZED");
    }
  });
});
