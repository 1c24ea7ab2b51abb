// SIGKILL in the middle of a write load, then restart: every acknowledged (2xx) write is there, and
// nothing is half-applied: each apply publishes a release and grants it in one transaction, so a
// release exists exactly when its grant does. The real `toolgate serve`, killed for real.
import { afterEach, expect, it } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { client } from "../helpers/http.js";
import { describeEachDatabase, POSTGRES_URL } from "../helpers/service.js";
import { applyPath, prepareRegistry, publishAndGrant, type Registry } from "./process-support.js";

const WORKERS = 4;
const ACKNOWLEDGED_BEFORE_KILL = 24;

describeEachDatabase("SIGKILL during a write load", (provider) => {
  let scratch: ScratchDatabase | undefined;
  let serving: ServingToolgate | undefined;
  afterEach(async () => {
    await serving?.ensureDead();
    await scratch?.drop();
    serving = undefined;
    scratch = undefined;
  });

  it("keeps every acknowledged apply after a restart, and no apply half-done", { timeout: 120_000 }, async () => {
    scratch = await createScratchDatabase(provider, POSTGRES_URL);
    const env = { TOOLGATE_DATABASE_URL: scratch.url, TOOLGATE_ADMIN_TOKEN: `tg_crash_admin_${"z".repeat(32)}` };
    serving = await serveToolgate(env);
    const adminToken = env.TOOLGATE_ADMIN_TOKEN;
    // One owner per worker: concurrent applies of one owner may conflict, which is not what this tests.
    const registries = await Promise.all(Array.from({ length: WORKERS }, () => prepareRegistry(serving!.url, adminToken)));

    const sent = registries.map(() => new Set<string>());
    const acknowledged = registries.map(() => new Set<string>());
    let acknowledgedCount = 0;
    let killed = false;
    const killedNow = () => {
      if (killed) return;
      killed = true;
      serving!.child.kill("SIGKILL");
    };
    const worker = async (index: number, registry: Registry) => {
      const http = client(serving!.url, adminToken);
      for (let sequence = 0; !killed; sequence += 1) {
        const name = `crash-${index}-${sequence}`;
        sent[index]!.add(name);
        const result = await http.post(applyPath(registry), publishAndGrant(registry, name)).catch(() => undefined);
        if (result && result.status >= 200 && result.status < 300) {
          acknowledged[index]!.add(name);
          if (++acknowledgedCount >= ACKNOWLEDGED_BEFORE_KILL) killedNow();
        }
      }
    };
    await Promise.all(registries.map((registry, index) => worker(index, registry)));
    expect((await serving.exited).signal).toBe("SIGKILL");

    serving = await serveToolgate(env);
    const admin = client(serving.url, adminToken);
    for (const [index, registry] of registries.entries()) {
      const releases = await admin.get(`/v1/accounts/${registry.ownerId}/tool-releases`);
      const grants = await admin.get(`/v1/envs/${registry.environmentId}/tool-middlewares`);
      expect(releases.status).toBe(200);
      expect(grants.status).toBe(200);
      const published = new Set<string>(releases.body.values.map((release: { name: string }) => release.name));
      const granted = new Set<string>(grants.body.values.map((view: { release: { name: string } }) => view.release.name));
      for (const name of acknowledged[index]!) {
        expect(published, `acknowledged ${name} is published`).toContain(name);
        expect(granted, `acknowledged ${name} is granted`).toContain(name);
      }
      expect([...published].sort()).toEqual([...granted].sort());
      for (const name of published) expect(sent[index]!.has(name)).toBe(true);
    }
    expect(acknowledged.reduce((total, names) => total + names.size, 0)).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
  });
});
