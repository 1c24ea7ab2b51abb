// Holds every answer the test HTTP client gets from a documented operation to the OpenAPI document
// (src/http/rest/openapi.ts): its status must be one the operation lists, and its JSON body must match
// that response's schema (ajv, JSON Schema 2020-12 with formats). A mismatch throws, failing the test
// that made the request. Answers of undocumented method/path pairs (405s, 404s for unknown paths,
// /graphql) are not checked here.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { createOpenApiDocument } from "../../src/http/rest/openapi.js";
import { REST_ROUTES } from "../../src/http/rest/routes.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

const DOCUMENT_ID = "https://toolgate.invalid/openapi.json";

interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, unknown> }>;
}

interface Checker {
  /** Compiles every response's validator now. */
  compileAll(): void;
  operationFor(method: string, path: string): { pointer: string; operation: Operation } | undefined;
  validator(pointer: string): ValidateFunction;
}

let checker: Checker | undefined;

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

function createChecker(): Checker {
  const document = createOpenApiDocument(REST_ROUTES) as { paths: Record<string, Record<string, Operation>> };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const patterns = Object.keys(document.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
  }));
  const validators = new Map<string, ValidateFunction>();
  const validator = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  };
  return {
    compileAll() {
      for (const [template, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          for (const [status, response] of Object.entries(operation.responses ?? {})) {
            if (response.content) validator(`/paths/${escapePointer(template)}/${method}/responses/${status}/content/application~1json/schema`);
          }
        }
      }
    },
    operationFor(method, path) {
      const match = patterns.find((pattern) => pattern.regex.test(path));
      const operation = match && document.paths[match.template]![method.toLowerCase()];
      return operation && { pointer: `/paths/${escapePointer(match.template)}/${method.toLowerCase()}`, operation };
    },
    validator,
  };
}

/**
 * Builds and compiles the checks (about a second) before the first request rather than between two:
 * a long synchronous pause after a response lets the server's keep-alive timer close the connection
 * fetch is about to reuse (ECONNRESET), as a long run of in-process database work does too.
 */
export function prepareOpenApiChecks(): Checker {
  if (!checker) {
    checker = createChecker();
    checker.compileAll();
  }
  return checker;
}

/** Throws when a documented operation's answer is not what the document says it can be. */
export function checkAgainstOpenApi(method: string, url: string, answer: { status: number; contentType: string | null; text: string }): void {
  const checker = prepareOpenApiChecks();
  const path = new URL(url, "http://localhost").pathname;
  const found = checker.operationFor(method, path);
  if (!found) return;
  const { operation, pointer } = found;
  const where = `${method} ${path} (${operation.operationId})`;
  const response = operation.responses[String(answer.status)];
  if (!response) {
    throw new Error(
      `OpenAPI: ${where} answered ${answer.status}, which the document does not list (${Object.keys(operation.responses).join(", ")}): ${answer.text.slice(0, 300)}`,
    );
  }
  if (!response.content) {
    if (answer.text !== "")
      throw new Error(`OpenAPI: ${where} answered ${answer.status} with a body the document does not declare: ${answer.text.slice(0, 300)}`);
    return;
  }
  if (method === "HEAD") return;
  if (!answer.contentType?.startsWith("application/json")) throw new Error(`OpenAPI: ${where} answered ${answer.status} as ${answer.contentType}, not JSON`);
  const validate = checker.validator(`${pointer}/responses/${answer.status}/content/application~1json/schema`);
  if (!validate(JSON.parse(answer.text))) {
    const problems = validate.errors!.map((error) => `${error.instancePath || "(body)"} ${error.message} ${JSON.stringify(error.params)}`);
    throw new Error(
      `OpenAPI: ${where} answered ${answer.status} with a body that does not match the document:\n  ${problems.join("\n  ")}\nbody: ${answer.text.slice(0, 500)}`,
    );
  }
}
