// Structural shape of a middleware definition. Every object is strict;
// semantic rules (names, tree shape, references) live in rules.ts.
//
// What the rules require of a single value (a kebab-case name, an exit code's range) is also stated
// here as metadata, for the OpenAPI document's JSON Schema: parsing ignores metadata, so the rules
// still report those issues in their own words. Rules over several values (uniqueness, references)
// cannot be stated in JSON Schema; views.ts describes them in words.
import { z } from "zod";
import {
  CONSTRAINT_KINDS,
  CONSTRAINT_VALUE_KINDS,
  ERROR_KINDS,
  FLAG_SHAPE_KINDS,
  OPTION_DEFAULT_KINDS,
  OPTION_SHAPE_KINDS,
  ROLE_TAGS,
  SCOPE_KINDS,
  TYPE_KINDS,
} from "./kinds.js";
import { isJsonValue, MAX_JSON_DEPTH, type JsonValue } from "./json-value.js";
import { expecting, integerMessage } from "./messages.js";
import { KEBAB } from "./names.js";

const integer = z.int({ error: integerMessage });
const jsonValue = z
  .custom<JsonValue>((value) => isJsonValue(value), {
    error: expecting(`a JSON value nested at most ${MAX_JSON_DEPTH} deep`),
  })
  .meta({ description: `Any JSON value nested at most ${MAX_JSON_DEPTH} deep.` });
const strings = z.array(z.string());

// Documented constraints the rules check (rules.ts, names.ts, switches.ts, tree.ts).
const name = z.string().meta({ pattern: KEBAB.source });
const names = z.array(name);
const shortName = z.union([z.string().meta({ minLength: 1, maxLength: 1 }), z.null()], { error: expecting("string or null") });
const nodeIndex = integer.meta({ minimum: 0 });
const exitCode = integer.meta({ minimum: 1, maximum: 255 });
/** Stored as a column of its own, and PostgreSQL text cannot hold U+0000. */
const storedText = z.string().meta({ pattern: "^[^\\u0000]*$" });

// A reference, by id, to a type of the surface's schema, with the documentation of its use here.
export const typeRefSchema = z.strictObject({
  kind: z.enum(TYPE_KINDS),
  value: z.strictObject({
    id: z.string(),
    metadata: z.strictObject({
      doc: z.string(),
      aliases: strings,
      examples: strings,
      deprecated: z.string(),
      role: z.strictObject({ tag: z.enum(ROLE_TAGS) }),
    }),
  }),
});

const typeDefSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  body: typeRefSchema,
});

export const schemaSchema = z.strictObject({
  defs: z.array(typeDefSchema),
  root: typeRefSchema,
});

// 2.7: top-level and command docs carry every member; nested docs may omit any.
const docExampleSchema = z.strictObject({ title: z.string(), body: z.string() });

export const docSchema = z.strictObject({
  summary: z.string(),
  description: z.string(),
  examples: z.array(docExampleSchema),
});

const nestedDocSchema = docSchema.partial();

// An option a command takes, with its value's type.
const optionSchema = z.strictObject({
  long: name,
  short: shortName,
  aliases: names,
  doc: nestedDocSchema,
  value_name: z.string(),
  shape: z.strictObject({ kind: z.enum(OPTION_SHAPE_KINDS), value: typeRefSchema }),
  default: z.strictObject({ kind: z.enum(OPTION_DEFAULT_KINDS), value: z.boolean() }),
  required: z.boolean(),
  env_var: z.string(),
});

const flagSchema = z.strictObject({
  long: name,
  short: shortName,
  aliases: names,
  doc: nestedDocSchema,
  env_var: z.string(),
  shape: z.strictObject({
    kind: z.enum(FLAG_SHAPE_KINDS),
    value: z.strictObject({ default: z.boolean(), negatable: z.boolean() }),
  }),
});

const positionalSchema = z.strictObject({
  name,
  doc: docSchema,
  value_name: z.string(),
  type_: typeRefSchema,
  default: jsonValue,
  required: z.boolean(),
  accepts_stdio: z.boolean(),
});

const tailPositionalSchema = z.strictObject({
  name,
  doc: docSchema,
  value_name: z.string(),
  item_type: typeRefSchema,
  min: integer.meta({ minimum: 0 }),
  max: integer,
  separator: z.string(),
  verbatim: z.boolean(),
  accepts_stdio: z.boolean(),
});

const constraintSchema = z.strictObject({
  kind: z.enum(CONSTRAINT_KINDS),
  value: z.array(z.strictObject({ kind: z.enum(CONSTRAINT_VALUE_KINDS), value: z.string() })),
});

const stdioSchema = z.strictObject({
  doc: nestedDocSchema,
  mime: strings,
  required: z.boolean(),
});

const formatterSchema = z.strictObject({ name, doc: nestedDocSchema });

const resultSchema = z.strictObject({
  type_: typeRefSchema,
  doc: docSchema,
  formatters: z.array(formatterSchema),
  default_formatter: z.string(),
});

const commandErrorSchema = z.strictObject({
  name,
  doc: docSchema,
  kind: z.enum(ERROR_KINDS),
  exit_code: exitCode,
  payload: typeRefSchema,
});

const annotationsSchema = z.strictObject({
  read_only: z.boolean(),
  destructive: z.boolean(),
  idempotent: z.boolean(),
  open_world: z.boolean(),
});

const commandBodySchema = z.strictObject({
  positionals: z.strictObject({
    fixed: z.array(positionalSchema),
    tail: tailPositionalSchema,
  }),
  options: z.array(optionSchema),
  flags: z.array(flagSchema),
  constraints: z.array(constraintSchema),
  stdin: stdioSchema,
  stdout: stdioSchema,
  stderr: stdioSchema,
  result: resultSchema,
  errors: z.array(commandErrorSchema),
  annotations: annotationsSchema,
});

// One command of the tree: its names, documentation, inherited globals, subcommands and body.
export const commandNodeSchema = z.strictObject({
  name,
  aliases: names,
  doc: docSchema,
  globals: z.strictObject({
    options: z.array(optionSchema),
    flags: z.array(flagSchema),
  }),
  subcommands: z.array(nodeIndex),
  body: commandBodySchema,
});

// A surface: the commands a tool presents (or, as `expected`, the tool underneath has) and their schema.
export const presentedSurfaceSchema = z.strictObject({
  version: z.string(),
  requires_filesystem: z.boolean(),
  commands: z.strictObject({ nodes: z.array(commandNodeSchema).meta({ minItems: 1 }) }),
  schema: schemaSchema,
});

// The whole middleware definition, as published.
export const middlewareDefinitionSchema = z.strictObject({
  name,
  version: storedText,
  aliases: names,
  doc: docSchema,
  scope: z.strictObject({
    kind: z.enum(SCOPE_KINDS),
    value: z.strictObject({
      presented: presentedSurfaceSchema,
      expected: presentedSurfaceSchema,
      parameter_schema: schemaSchema,
    }),
  }),
});

export type TypeRef = z.infer<typeof typeRefSchema>;
export type TypeDef = z.infer<typeof typeDefSchema>;
export type Schema = z.infer<typeof schemaSchema>;
export type Doc = z.infer<typeof docSchema>;
export type NestedDoc = z.infer<typeof nestedDocSchema>;
export type Option = z.infer<typeof optionSchema>;
export type Flag = z.infer<typeof flagSchema>;
export type Positional = z.infer<typeof positionalSchema>;
export type TailPositional = z.infer<typeof tailPositionalSchema>;
export type Stdio = z.infer<typeof stdioSchema>;
export type CommandResult = z.infer<typeof resultSchema>;
export type CommandError = z.infer<typeof commandErrorSchema>;
export type Annotations = z.infer<typeof annotationsSchema>;
export type CommandBody = z.infer<typeof commandBodySchema>;
export type CommandNode = z.infer<typeof commandNodeSchema>;
export type PresentedSurface = z.infer<typeof presentedSurfaceSchema>;
export type MiddlewareDefinition = z.infer<typeof middlewareDefinitionSchema>;
