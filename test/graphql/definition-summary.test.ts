// ToolRelease.definitionSummary: the definition's names, doc and commands as typed fields.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolRelease } from "../../src/db/generated/sqlite/client.js";
import type { MiddlewareDefinition } from "../../src/domain/definitions/index.js";
import { applyChanges } from "../../src/domain/publications.js";
import { gitLite } from "../fixtures/definitions/index.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";
import { dataOf, grant, uniqueName } from "./support.js";

const SUMMARY_FIELDS = /* GraphQL */ `
  definitionSummary {
    name version aliases summary description requiresFilesystem
    commands { name path depth aliases summary description subcommandNames annotations { readOnly destructive idempotent openWorld } }
  }
`;

/** git-lite with `branch` moved under `commit`, so one command is two levels deep. */
function nestedGitLite(name: string): MiddlewareDefinition {
  const definition = gitLite(name, "3.0.0");
  const nodes = definition.scope.value.presented.commands.nodes;
  nodes[0]!.subcommands = [1, 2, 3];
  nodes[3]!.subcommands = [4];
  return definition;
}

const annotations = (set: Partial<Record<"readOnly" | "destructive" | "idempotent" | "openWorld", boolean>>) => ({
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  ...set,
});

describeEachDatabase("ToolRelease.definitionSummary", (provider) => {
  let service: TestService;
  let world: World;
  let definition: MiddlewareDefinition;
  let release: ToolRelease;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    definition = nestedGitLite(uniqueName("git-nested"));
    const environment = await world.environmentOf(world.owner);
    const applied = await applyChanges(service.db, world.owner.account, environment.id, {
      publications: [
        { name: definition.name, definition, source: { kind: "component", componentId: randomUUID(), componentRevision: 1, componentName: "git-nested" } },
      ],
      grantReconciliation: { creations: [], deletions: [] },
    });
    release = applied.releases[0]!;
  });
  afterAll(() => service?.stopAndDrop());

  const summaryOf = async () =>
    dataOf(await world.owner.http.graphql(`query ($id: UUID!) { toolRelease(id: $id) { ${SUMMARY_FIELDS} } }`, { id: release.id })).toolRelease
      .definitionSummary;

  describe("DefinitionSummary", () => {
    it("has the middleware's name, version, aliases, doc summary and description, and requiresFilesystem", async () => {
      const { commands: _commands, ...summary } = await summaryOf();
      expect(summary).toEqual({
        name: definition.name,
        version: "3.0.0",
        aliases: [],
        summary: "git, trimmed to the commands an agent needs.",
        description: "Status, history, commits and branches of one repository.",
        requiresFilesystem: true,
      });
    });

    it("lists every command depth-first from the root, with its path from the root", async () => {
      const { commands } = await summaryOf();
      const name = definition.name;
      expect(commands.map((command: any) => [command.path, command.depth, command.subcommandNames])).toEqual([
        [name, 0, ["status", "log", "commit"]],
        [`${name} status`, 1, []],
        [`${name} log`, 1, []],
        [`${name} commit`, 1, ["branch"]],
        [`${name} commit branch`, 2, []],
      ]);
    });
  });

  describe("CommandSummary", () => {
    it("has the command's name, aliases and doc summary and description", async () => {
      const { commands } = await summaryOf();
      expect(commands[1]).toMatchObject({
        name: "status",
        aliases: ["st"],
        summary: "Show the working tree status.",
        description: "Lists staged, unstaged and untracked changes.",
      });
      expect(commands[4]).toMatchObject({ name: "branch", aliases: ["br"] });
    });

    it("has the command's annotations as readOnly, destructive, idempotent and openWorld", async () => {
      const { commands } = await summaryOf();
      expect(commands.map((command: any) => command.annotations)).toEqual([
        annotations({ readOnly: true, idempotent: true }),
        annotations({ readOnly: true, idempotent: true }),
        annotations({ readOnly: true, idempotent: true }),
        annotations({}),
        annotations({ destructive: true }),
      ]);
    });
  });

  describe("definitionSummary of a granted release", () => {
    it("is readable by everyone who can see the grant", async () => {
      const granted = await grant(world, world.environment, release);
      const result = await world.viewer.http.graphql(`query ($id: UUID!) { grant(id: $id) { release { ${SUMMARY_FIELDS} } } }`, { id: granted.id });
      expect(dataOf(result).grant.release.definitionSummary).toEqual(await summaryOf());
    });
  });
});
