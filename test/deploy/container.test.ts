// The container files (Dockerfile, compose.yaml, deploy/Caddyfile), checked without a Docker daemon:
// the Dockerfile passes the linter of VS Code's Docker support (dockerfile-utils); what the image
// copies is enough to run (the runtime stage's files, laid out alone, serve and pass the image's own
// health check); it runs unprivileged; and the compose file wires two replicas to PostgreSQL behind
// a proxy that checks readiness. Where a daemon answers, the image is built and run.
import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { validate } from "dockerfile-utils";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { serveToolgate } from "../helpers/child-process.js";

const run = promisify(execFile);

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(" ") };
    });
}

const dockerfile = instructions(readFileSync("Dockerfile", "utf8"));
const stages = dockerfile.reduce<Instruction[][]>(
  (all, instruction) => (instruction.keyword === "FROM" ? [...all, [instruction]] : (all.at(-1)!.push(instruction), all)),
  [],
);
const runtime = stages.at(-1)!;
/** What the runtime stage copies from the build stage: paths below /app. */
const runtimeFiles = runtime.filter((i) => i.keyword === "COPY").map((i) => /--from=build \/app\/(\S+)/.exec(i.args)![1]!);
const healthcheck = JSON.parse(runtime.find((i) => i.keyword === "HEALTHCHECK")!.args.replace(/^.*?CMD\s+/, "")) as string[];

const dockerAvailable = (() => {
  try {
    execFileSync("docker", ["info"], { stdio: "ignore", timeout: 5000 });
    return true;
  } catch {
    return false;
  }
})();
if (!dockerAvailable) console.warn("[toolgate tests] no Docker daemon: the image is checked without being built (test/deploy/container.test.ts)");

describe("the Dockerfile", () => {
  it("has no problem dockerfile-utils' linter finds (unknown instructions, bad arguments, flags, ports)", () => {
    expect(validate(readFileSync("Dockerfile", "utf8")).map((problem) => `${problem.range.start.line + 1}: ${problem.message}`)).toEqual([]);
  });

  it("builds in one stage and runs from another, as the unprivileged node user, with a readiness health check", () => {
    expect(stages).toHaveLength(2);
    expect(runtime[0]!.args).toMatch(/^node:20-/);
    const user = runtime.findIndex((i) => i.keyword === "USER");
    expect(runtime[user]!.args).toBe("node");
    expect(user).toBeLessThan(runtime.findIndex((i) => i.keyword === "ENTRYPOINT"));
    expect(healthcheck.join(" ")).toContain("/readyz");
    expect(JSON.parse(runtime.find((i) => i.keyword === "ENTRYPOINT")!.args)).toEqual(["/app/bin/toolgate.js"]);
    expect(JSON.parse(runtime.find((i) => i.keyword === "CMD")!.args)).toEqual(["serve"]);
    // Every file the build stage copies from the checkout exists, and .dockerignore keeps none of them out.
    const ignored = readFileSync(".dockerignore", "utf8").split("\n").filter(Boolean);
    for (const copy of stages[0]!.filter((i) => i.keyword === "COPY")) {
      for (const source of copy.args.split(/\s+/).slice(0, -1)) {
        expect(existsSync(source), source).toBe(true);
        expect(ignored, source).not.toContain(source);
      }
    }
  });

  describe("its runtime stage's files, alone in a folder", () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "toolgate-image-"));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));

    it("serve on SQLite and pass the image's health check; the check fails when nothing is ready", async () => {
      for (const file of runtimeFiles) {
        // node_modules is linked, not copied: its pruning is npm's, the rest is what this test checks.
        if (file === "node_modules") symlinkSync(path.resolve("node_modules"), path.join(folder, "node_modules"));
        else cpSync(file, path.join(folder, file), { recursive: true });
      }
      expect(runtimeFiles.sort()).toEqual(["bin", "dist", "node_modules", "package.json", "prisma"]);
      const server = await serveToolgate(
        { TOOLGATE_DATABASE_URL: `file:${path.join(folder, "data", "toolgate.db")}` },
        120_000,
        [],
        path.join(folder, "bin", "toolgate.js"),
      );
      try {
        const port = new URL(server.url).port;
        const [command, ...args] = healthcheck;
        await expect(run(command === "node" ? process.execPath : command!, args, { env: { ...process.env, PORT: port } })).resolves.toBeDefined();
        server.child.kill("SIGTERM");
        await server.exited;
        await expect(run(process.execPath, args, { env: { ...process.env, PORT: port } })).rejects.toMatchObject({ code: 1 });
      } finally {
        await server.ensureDead();
      }
    }, 180_000);
  });

  it.runIf(dockerAvailable)(
    "builds an image that becomes healthy",
    async () => {
      await run("docker", ["build", "-t", "toolgate-test", "."], { timeout: 900_000 });
      const { stdout } = await run("docker", ["run", "-d", "--rm", "toolgate-test"]);
      const id = stdout.trim();
      try {
        await expect
          .poll(async () => (await run("docker", ["inspect", "-f", "{{.State.Health.Status}}", id])).stdout.trim(), { timeout: 90_000, interval: 2000 })
          .toBe("healthy");
        expect((await run("docker", ["exec", id, "id", "-un"])).stdout.trim()).toBe("node");
      } finally {
        await run("docker", ["stop", id]);
      }
    },
    1_000_000,
  );
});

describe("compose.yaml", () => {
  const compose = parse(readFileSync("compose.yaml", "utf8")) as { services: Record<string, Record<string, unknown>> };
  const caddyfile = readFileSync("deploy/Caddyfile", "utf8");

  it("runs two replicas of this checkout on one PostgreSQL, behind a proxy that checks each replica's readiness", () => {
    const { postgres, proxy, ...replicas } = compose.services;
    expect(Object.keys(replicas)).toEqual(["toolgate-1", "toolgate-2"]);
    expect(postgres!.image).toMatch(/^postgres:/);
    for (const replica of Object.values(replicas)) {
      expect(replica.build).toBe(".");
      const environment = replica.environment as Record<string, string>;
      expect(environment.TOOLGATE_DATABASE_URL).toMatch(/^postgres:\/\/\w+:\w+@postgres:5432\/\w+$/);
      expect(environment.TOOLGATE_ADMIN_TOKEN).toMatch(/^\$\{TOOLGATE_ADMIN_TOKEN:\?/);
      expect(replica.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    }
    expect(proxy!.volumes).toEqual(["./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"]);
    expect(caddyfile).toMatch(/reverse_proxy toolgate-1:4000 toolgate-2:4000/);
    expect(caddyfile).toMatch(/health_uri \/readyz/);
  });
});
