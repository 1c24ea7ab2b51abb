// Tokens are cached for at most MAX_TOKEN_CACHE_MS: a revocation through this process applies to the
// next request, one through another replica within that bound; and a busy token costs one lookup
// per interval instead of one per request.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { issueToken } from "../../src/domain/accounts.js";
import { cachedTokenLookup, MAX_TOKEN_CACHE_MS } from "../../src/domain/token-cache.js";
import { authenticate, hashSecret, tokenLookupIn, type TokenLookup } from "../../src/domain/tokens.js";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";

const ME = "{ me { email } }";
const REVOKE = "mutation ($id: UUID!) { revokeApiToken(id: $id) { revokedAt } }";

describeEachDatabase("token cache and revocation across replicas", (provider) => {
  let service: TestService;
  let replica: ServingToolgate;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider, { tokenCacheMs: MAX_TOKEN_CACHE_MS });
    replica = await serveToolgate({
      TOOLGATE_DATABASE_URL: service.databaseUrl,
      TOOLGATE_ADMIN_TOKEN: service.adminToken,
      TOOLGATE_TOKEN_CACHE_MS: String(MAX_TOKEN_CACHE_MS),
    });
    world = await createWorld(service);
  }, 120_000);
  afterAll(async () => {
    await replica?.ensureDead();
    await service?.stopAndDrop();
  });

  const freshToken = async () => {
    const member = await world.member();
    const { token, secret } = await issueToken(service.db, "system", { accountId: member.account.id, name: "revocable" });
    return { id: token.id, secret, email: member.account.email };
  };

  it("a token revoked through one replica is refused by the other within the bound, and at once by the one that revoked it", async () => {
    const token = await freshToken();
    const here = client(service.url, token.secret);
    const there = client(replica.url, token.secret);
    // Both processes have now looked the token up and cached it.
    expect((await here.graphql(ME)).body.data.me.email).toBe(token.email);
    expect((await there.graphql(ME)).body.data.me.email).toBe(token.email);

    const revoked = await there.graphql(REVOKE, { id: token.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokeApiToken.revokedAt).toEqual(expect.any(String));
    expect((await there.graphql(ME)).status).toBe(401);

    await sleep(MAX_TOKEN_CACHE_MS + 100);
    const refused = await here.get("/v1/tool-releases/00000000-0000-7000-8000-000000000000");
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatch(/revoked/);
  });

  it("the other direction: revoked in this process, refused by the replica within the bound", async () => {
    const token = await freshToken();
    const there = client(replica.url, token.secret);
    expect((await there.graphql(ME)).status).toBe(200);
    expect((await client(service.url, token.secret).graphql(REVOKE, { id: token.id })).status).toBe(200);
    await sleep(MAX_TOKEN_CACHE_MS + 100);
    expect((await there.graphql(ME)).status).toBe(401);
  });

  it("a busy token is read from the database once per interval, and again at once after a revocation in this process", async () => {
    const token = await freshToken();
    let reads = 0;
    const database = tokenLookupIn(service.db);
    const counting: TokenLookup = (secretHash) => {
      reads += 1;
      return database(secretHash);
    };
    const lookup = cachedTokenLookup(counting, { ttlMs: 60_000 });
    const header = `Bearer ${token.secret}`;
    for (let i = 0; i < 100; i++) expect((await authenticate(lookup, header)).kind).toBe("authenticated");
    expect(reads).toBe(1);

    await client(service.url, token.secret).graphql(REVOKE, { id: token.id });
    expect(await authenticate(lookup, header)).toEqual({ kind: "rejected", reason: "API token has been revoked" });
    expect(reads).toBe(2);
    // Unknown tokens are never cached: forged tokens cannot evict real ones.
    await authenticate(lookup, "Bearer tg_forged");
    await authenticate(lookup, "Bearer tg_forged");
    expect(reads).toBe(4);
    expect(hashSecret("tg_forged")).not.toBe(hashSecret(token.secret));
  });
});
