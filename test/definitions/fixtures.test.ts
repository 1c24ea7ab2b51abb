import { describe, expect, it } from "vitest";
import { presentedSurface, validateDefinition, type PresentedSurface } from "../../src/domain/definitions/index.js";
import { definitionFor, gitLite, jsonFormat, largeDefinition } from "../fixtures/definitions/index.js";
import { draftOf } from "./helpers.js";

function depthOf(surface: PresentedSurface, node = 0): number {
  const children = surface.commands.nodes[node]!.subcommands;
  return children.length === 0 ? 0 : 1 + Math.max(...children.map((child) => depthOf(surface, child)));
}

describe("validateDefinition on valid definitions", () => {
  it.each([
    ["json-format (single root command)", jsonFormat()],
    ["git-lite (root and four subcommands)", gitLite()],
    ["cloudctl (200 nodes, depth 20)", largeDefinition()],
    ["definitionFor(acme-tool, 0.3.0)", definitionFor("acme-tool", "0.3.0")],
  ])("accepts %s and returns it unchanged", (_, definition) => {
    const result = validateDefinition(draftOf(definition), "definition");
    expect(result).toEqual({ ok: true, definition });
  });

  it("the large generator builds the requested size and depth", () => {
    const surface = presentedSurface(largeDefinition({ nodes: 200, depth: 20 }));
    expect(surface.commands.nodes).toHaveLength(200);
    expect(depthOf(surface)).toBe(20);
  });

  it("definitionFor uses the given name and version", () => {
    const definition = definitionFor("acme-tool", "0.3.0");
    expect([definition.name, definition.version]).toEqual(["acme-tool", "0.3.0"]);
    expect(presentedSurface(definition).commands.nodes[0]!.name).toBe("acme-tool");
  });

  it("accepts nested docs with members absent", () => {
    const draft = draftOf();
    draft.scope.value.presented.commands.nodes[0].globals.options[0].doc = {};
    draft.scope.value.presented.commands.nodes[1].body.result.formatters[0].doc = { description: "Aligned columns." };
    expect(validateDefinition(draft, "definition").ok).toBe(true);
  });

  it("accepts any JSON as a positional default", () => {
    const draft = draftOf();
    draft.scope.value.presented.commands.nodes[2].body.positionals.fixed[0].default = { ref: "HEAD", depth: [1, 2.5, null, true] };
    expect(validateDefinition(draft, "definition").ok).toBe(true);
  });

  it("lets a constraint refer to an inherited global", () => {
    const draft = draftOf();
    draft.scope.value.presented.commands.nodes[2].body.constraints[0].value[1].value = "verbose";
    expect(validateDefinition(draft, "definition").ok).toBe(true);
  });

  it("lets siblings reuse option names that are not globals", () => {
    // status and commit both declare -s; branch and commit both declare --all/-a.
    expect(validateDefinition(draftOf(gitLite()), "definition").ok).toBe(true);
  });

  it("presentedSurface returns scope.value.presented", () => {
    const definition = gitLite();
    expect(presentedSurface(definition)).toBe(definition.scope.value.presented);
  });
});
