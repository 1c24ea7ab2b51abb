// Typed convenience views of a release's middleware definition, so clients need not dig through
// the JSON: the middleware's names and doc, and every command with its path and annotations.
import type { Annotations, CommandNode, MiddlewareDefinition } from "../../domain/definitions/index.js";
import { builder } from "../builder.js";

interface CommandSummary {
  name: string;
  aliases: string[];
  summary: string;
  description: string;
  path: string;
  depth: number;
  subcommandNames: string[];
  annotations: Annotations;
}

export interface DefinitionSummary {
  name: string;
  version: string;
  aliases: string[];
  summary: string;
  description: string;
  requiresFilesystem: boolean;
  commands: CommandSummary[];
}

/**
 * The commands of the presented surface in depth-first order from the root (node 0), each with
 * its path of names from the root. Stored definitions are validated trees; the visited set only
 * keeps a malformed one from looping.
 */
function commandSummaries(nodes: readonly CommandNode[]): CommandSummary[] {
  const summaries: CommandSummary[] = [];
  const visited = new Set<number>();
  const visit = (index: number, parentPath: string[]) => {
    const node = nodes[index];
    if (!node || visited.has(index)) return;
    visited.add(index);
    const path = [...parentPath, node.name];
    summaries.push({
      name: node.name,
      aliases: node.aliases,
      summary: node.doc.summary,
      description: node.doc.description,
      path: path.join(" "),
      depth: parentPath.length,
      subcommandNames: node.subcommands.flatMap((child) => (nodes[child] ? [nodes[child].name] : [])),
      annotations: node.body.annotations,
    });
    for (const child of node.subcommands) visit(child, path);
  };
  visit(0, []);
  return summaries;
}

export function summarizeDefinition(definition: MiddlewareDefinition): DefinitionSummary {
  const presented = definition.scope.value.presented;
  return {
    name: definition.name,
    version: definition.version,
    aliases: definition.aliases,
    summary: definition.doc.summary,
    description: definition.doc.description,
    requiresFilesystem: presented.requires_filesystem,
    commands: commandSummaries(presented.commands.nodes),
  };
}

const CommandAnnotationsType = builder.objectRef<Annotations>("CommandAnnotations").implement({
  description: "Hints about a command's effects (`body.annotations` of the definition).",
  fields: (t) => ({
    readOnly: t.exposeBoolean("read_only", { description: "The command does not change anything." }),
    destructive: t.exposeBoolean("destructive", { description: "The command may destroy or overwrite data." }),
    idempotent: t.exposeBoolean("idempotent", { description: "Repeating the command has no further effect." }),
    openWorld: t.exposeBoolean("open_world", { description: "The command reaches outside the local system (network, other services)." }),
  }),
});

const CommandSummaryType = builder.objectRef<CommandSummary>("CommandSummary").implement({
  description: "One command of a release's presented surface.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "The command's own name." }),
    aliases: t.exposeStringList("aliases", { description: "Other names of the command." }),
    summary: t.exposeString("summary", { description: "One-line doc summary." }),
    description: t.exposeString("description", { description: "Longer doc description." }),
    path: t.exposeString("path", { description: 'Names from the root command, space-separated, as typed: "git-lite status". The root\'s path is its name.' }),
    depth: t.exposeInt("depth", { description: "0 for the root command, 1 for its subcommands, and so on." }),
    subcommandNames: t.exposeStringList("subcommandNames", { description: "Names of the direct subcommands, in definition order." }),
    annotations: t.field({ type: CommandAnnotationsType, description: "Hints about the command's effects.", resolve: (command) => command.annotations }),
  }),
});

export const DefinitionSummaryType = builder.objectRef<DefinitionSummary>("DefinitionSummary").implement({
  description: "The parts of a middleware definition most clients need, typed. The whole definition stays available as JSON.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Middleware name (`definition.name`)." }),
    version: t.exposeString("version", { description: "Definition version (`definition.version`)." }),
    aliases: t.exposeStringList("aliases", { description: "Other names of the middleware." }),
    summary: t.exposeString("summary", { description: "One-line doc summary of the middleware." }),
    description: t.exposeString("description", { description: "Longer doc description of the middleware." }),
    requiresFilesystem: t.exposeBoolean("requiresFilesystem", { description: "Whether the presented surface needs a filesystem." }),
    commands: t.field({
      type: [CommandSummaryType],
      description: "Every command of the presented surface, depth-first from the root command.",
      resolve: (summary) => summary.commands,
    }),
  }),
});
