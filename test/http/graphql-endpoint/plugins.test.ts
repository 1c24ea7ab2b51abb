// Each of toolgate's own Yoga plugins (src/http/graphql-endpoint/plugins/), alone on a bare Yoga over
// a small schema: what it changes, seen against the same request without it. Plugins with suites of
// their own: read-body-once (test/http/read-body-once.test.ts), persisted queries
// (test/http/persisted-queries.test.ts), statuses and media types (test/http/graphql-over-http.test.ts).
import { makeExecutableSchema } from "@graphql-tools/schema";
import { GraphQLError } from "graphql";
import { createYoga, type Plugin } from "graphql-yoga";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { DomainError } from "../../../src/domain/errors.js";
import type { Context } from "../../../src/graphql/context.js";
import { maskError } from "../../../src/graphql/error-codes.js";
import { GRAPHQL_LIMITS } from "../../../src/graphql/armor.js";
import { useAnswerableNote } from "../../../src/http/graphql-endpoint/plugins/answerable-note.js";
import { useHttpStatusInErrorBodies } from "../../../src/http/graphql-endpoint/plugins/http-status-in-error-bodies.js";
import { useInvalidDocumentsAsRequestInvalid } from "../../../src/http/graphql-endpoint/plugins/invalid-documents.js";
import { useMalformedRequestsAsRequestInvalid } from "../../../src/http/graphql-endpoint/plugins/malformed-requests.js";
import { useOperationNameNote } from "../../../src/http/graphql-endpoint/plugins/operation-name-note.js";
import { useUnexpectedErrorsLogged } from "../../../src/http/graphql-endpoint/plugins/unexpected-errors.js";
import { useDisabledIntrospection, useListArgumentLimit } from "../../../src/http/graphql-endpoint/plugins/validation-rules.js";

const schema = makeExecutableSchema({
  typeDefs: "type Query { hello: String, count(ids: [ID!]): Int, refused: String, broken: String, domainRefusal: String } type Mutation { touch: Boolean }",
  resolvers: {
    Query: {
      hello: () => "world",
      count: (_parent: unknown, args: { ids?: string[] }) => args.ids?.length ?? 0,
      refused: () => {
        throw new GraphQLError("not here", { extensions: { code: "NOT_FOUND", http: { status: 404 } } });
      },
      broken: () => {
        throw new Error("a bug's own message");
      },
      domainRefusal: () => {
        throw new DomainError("NOT_FOUND", "no such thing");
      },
    },
    Mutation: { touch: () => true },
  },
});

interface Logged {
  level: number;
  msg: string;
  err?: { message: string };
}

/** A Yoga with only `plugins`, toolgate's error masking, and a context like toolgate's (its notes and logger). */
function yogaWith(plugins: (Plugin | Plugin<Context>)[]) {
  const logged: Logged[] = [];
  const answer: { keepable: boolean; operationName?: string | undefined } = { keepable: false };
  const logger = pino({ level: "info" }, { write: (line: string) => logged.push(JSON.parse(line) as Logged) });
  const yoga = createYoga<Record<string, never>, Context>({
    schema,
    // Some plugins read toolgate's context, others none: one list for Yoga.
    plugins: plugins as unknown as Plugin<Context>[],
    logging: false,
    landingPage: false,
    fetchAPI: { Request, Response },
    // The fields these plugins read; the rest of a request context is not needed here.
    context: () => ({ answer, logger }) as unknown as Context,
    maskedErrors: { maskError: (error) => maskError(error, () => {}) },
  });
  const post = async (query: string, variables?: unknown) => {
    const response = await yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
      body: JSON.stringify({ query, variables }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] },
    };
  };
  return { yoga, post, answer, logged };
}

describe("useHttpStatusInErrorBodies", () => {
  it("keeps extensions.http.status in the body, which Yoga drops without it", async () => {
    const without = await yogaWith([]).post("{ refused }");
    expect(without.body.errors?.[0]?.extensions?.http).toBeUndefined();
    const withIt = await yogaWith([useHttpStatusInErrorBodies()]).post("{ refused }");
    expect(withIt.body.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", http: { status: 404 } });
  });
});

describe("useOperationNameNote", () => {
  it("notes the executed operation's name in the context, and '' for an anonymous one", async () => {
    const { post, answer } = yogaWith([useOperationNameNote()]);
    await post("query Greeting { hello }");
    expect(answer.operationName).toBe("Greeting");
    await post("{ hello }");
    expect(answer.operationName).toBe("");
  });
});

describe("useAnswerableNote", () => {
  it("marks a query answered without errors keepable, and neither a mutation nor a query with errors", async () => {
    const { post, answer } = yogaWith([useAnswerableNote()]);
    await post("{ hello }");
    expect(answer.keepable).toBe(true);
    await post("mutation { touch }");
    expect(answer.keepable).toBe(false);
    await post("{ hello }");
    await post("{ hello refused }");
    expect(answer.keepable).toBe(false);
  });
});

describe("useMalformedRequestsAsRequestInvalid", () => {
  it("answers malformed JSON in ?variables= with REQUEST_INVALID naming the parameter", async () => {
    const { yoga } = yogaWith([useMalformedRequestsAsRequestInvalid()]);
    const response = await yoga.fetch("http://localhost/graphql?query=%7Bhello%7D&variables=%7Bnope", { headers: { accept: "application/json" } });
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string; problems: string[] } }[] };
    expect(body.errors[0]?.extensions.code).toBe("REQUEST_INVALID");
    expect(body.errors[0]?.extensions.problems[0]).toMatch(/^query\.variables: malformed JSON/);
  });

  it("answers a content type Yoga cannot parse with UNSUPPORTED_MEDIA_TYPE", async () => {
    const { yoga } = yogaWith([useMalformedRequestsAsRequestInvalid()]);
    const response = await yoga.fetch("http://localhost/graphql", { method: "POST", headers: { "content-type": "text/csv" }, body: "hello" });
    const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("useListArgumentLimit and useDisabledIntrospection", () => {
  it("refuse a literal list over the limit, and introspection when it is off, while __typename stays", async () => {
    const ids = Array.from({ length: GRAPHQL_LIMITS.maxListArgumentItems + 1 }, (_, index) => `"${index}"`).join(",");
    const { post } = yogaWith([useListArgumentLimit(), useDisabledIntrospection()]);
    expect((await post(`{ count(ids: [${ids}]) }`)).body.errors?.[0]?.message).toMatch(/at most/);
    expect((await post(`{ count(ids: ["1", "2"]) }`)).body.data).toEqual({ count: 2 });
    expect((await post("{ __schema { queryType { name } } }")).body.errors?.[0]?.message).toMatch(/introspection/i);
    expect((await post("{ __typename }")).body.data).toEqual({ __typename: "Query" });
    expect((await yogaWith([]).post("{ __schema { queryType { name } } }")).body.data).toEqual({ __schema: { queryType: { name: "Query" } } });
  });
});

describe("useInvalidDocumentsAsRequestInvalid", () => {
  it("gives validation errors the code REQUEST_INVALID", async () => {
    expect((await yogaWith([]).post("{ nope }")).body.errors?.[0]?.extensions?.code).not.toBe("REQUEST_INVALID");
    const withIt = await yogaWith([useInvalidDocumentsAsRequestInvalid()]).post("{ nope }");
    expect(withIt.body.errors?.[0]?.extensions?.code).toBe("REQUEST_INVALID");
    expect(withIt.body.errors?.[0]?.message).toMatch(/nope/);
  });
});

describe("useUnexpectedErrorsLogged", () => {
  it("logs an unexpected error with the request's logger and answers INTERNAL_UNKNOWN; a domain refusal is not logged", async () => {
    const { post, logged } = yogaWith([useUnexpectedErrorsLogged()]);
    const broken = await post("{ broken }");
    expect(broken.body.errors?.[0]).toMatchObject({ extensions: { code: "INTERNAL_UNKNOWN" } });
    expect(JSON.stringify(broken.body)).not.toContain("a bug's own message");
    expect(logged).toEqual([
      expect.objectContaining({ level: 50, msg: "unexpected GraphQL error", err: expect.objectContaining({ message: "a bug's own message" }) }),
    ]);
    const refused = await post("{ domainRefusal }");
    expect(refused.body.errors?.[0]).toMatchObject({ message: "no such thing", extensions: { code: "NOT_FOUND" } });
    expect(logged).toHaveLength(1);
  });
});
