// `node --import tsx bench/ceiling-server.ts <answer.json> <yoga|graphql-js>`: the nested read's
// answer held in memory, served through graphql-yoga or through graphql-js alone on node:http, with
// default resolvers: no database, no authentication, no plugins. What the GraphQL layer itself costs
// for that read (bench/ceiling.ts measures it beside the floor and toolgate).
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { execute, parse, validate, type DocumentNode } from "graphql";
import { createYoga } from "graphql-yoga";

const [answerFile, mode = "yoga"] = process.argv.slice(2);
const answer = (JSON.parse(readFileSync(answerFile!, "utf8")) as { data: { environment: unknown } }).data;
const schema = makeExecutableSchema({
  typeDefs: /* GraphQL */ `
    scalar UUID
    type Query { environment(id: UUID!): Environment }
    type Environment { name: String! activeGrants: [Grant!]! }
    type Grant { uuid: UUID! release: Release! }
    type Release { name: String! version: String! owner: Account! }
    type Account { name: String! }
  `,
  resolvers: { Query: { environment: () => answer.environment } },
});

function yogaHandler(): (request: IncomingMessage, response: ServerResponse) => void {
  const yoga = createYoga({ schema, fetchAPI: { Request, Response }, logging: false, graphiql: false, maskedErrors: true });
  // Yoga answers every request itself, errors included: nothing waits for the promise it returns.
  return (request, response) => void yoga(request, response);
}

function graphqlJsHandler(): (request: IncomingMessage, response: ServerResponse) => void {
  const documents = new Map<string, DocumentNode>();
  return (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { query: string; variables?: Record<string, unknown> };
      let document = documents.get(body.query);
      if (!document) {
        document = parse(body.query);
        if (validate(schema, document).length > 0) throw new Error("invalid document");
        documents.set(body.query, document);
      }
      void Promise.resolve(execute({ schema, document, variableValues: body.variables })).then((result) => {
        const text = JSON.stringify(result);
        response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        response.end(text);
      });
    });
  };
}

const server = createServer(mode === "yoga" ? yogaHandler() : graphqlJsHandler());
server.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
