// `npx tsx bench/ceiling.ts [sqlite|postgresql]`: how far the nested GraphQL read could get while
// served by Yoga and graphql-js. Seeds the benchmark's data set, starts the floor and toolgate as
// `npm run bench` does, and two servers answering the same read from memory with default resolvers
// (bench/ceiling-server.ts: graphql-yoga, and graphql-js alone on node:http); then sends requests one
// at a time and prints each server's CPU ms per request, for the nested read and for `{ __typename }`
// (the fixed cost of a GraphQL request), over three rounds.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";
import { FULL_DATASET, seedDataset } from "./dataset.js";
import { cpuMillis } from "./proc.js";
import { SCENARIOS, type BenchRequest } from "./scenarios.js";
import { startFloor, startToolgate } from "./servers.js";

const [provider = "sqlite"] = process.argv.slice(2);
const REQUESTS_PER_ROUND = 2000;

interface Server {
  url: string;
  pid: number;
  stop(): Promise<void> | void;
}

function startFromMemory(answerFile: string, mode: "yoga" | "graphql-js"): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/ceiling-server.ts", answerFile, mode], { env: { ...process.env, NODE_ENV: "production" } });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`ceiling server (${mode}) exited with ${code}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      const url = /http:\/\/[\d.:]+/.exec(chunk.toString())?.[0];
      if (url) resolve({ url, pid: child.pid!, stop: () => void child.kill("SIGTERM") });
    });
  });
}

async function cpuPerRequest(server: Server, request: BenchRequest): Promise<number> {
  // No content coding: the load generator asks for none, and the floor compresses nothing.
  const headers = { ...request.headers, "accept-encoding": "identity" };
  const send = async () => {
    const response = await fetch(server.url + request.path, { method: request.method, headers, body: request.body });
    const text = await response.text();
    if (response.status !== 200 || text.includes('"errors"')) throw new Error(`${server.url}: ${response.status} ${text.slice(0, 200)}`);
  };
  for (let index = 0; index < 200; index++) await send();
  const before = cpuMillis(server.pid);
  for (let index = 0; index < REQUESTS_PER_ROUND; index++) await send();
  return (cpuMillis(server.pid) - before) / REQUESTS_PER_ROUND;
}

const scratch = await createScratchDatabase(provider as DatabaseProvider);
const stops: (() => Promise<void> | void)[] = [];
try {
  await migrateDatabase(scratch.url);
  const db = await openDatabase(scratch.url);
  const { subject } = await seedDataset(db, FULL_DATASET).finally(() => db.$disconnect());
  const nested = SCENARIOS.find((scenario) => scenario.id === "graphql-nested")!.requests(subject)[0]!;
  const typename: BenchRequest = { ...nested, body: JSON.stringify({ query: "{ __typename }" }) };

  const floor = await startFloor(scratch.url);
  stops.push(floor.stop);
  const toolgate = await startToolgate(scratch.url);
  stops.push(toolgate.stop);
  const answerFile = path.join(mkdtempSync(path.join(os.tmpdir(), "toolgate-ceiling-")), "answer.json");
  writeFileSync(answerFile, await (await fetch(floor.url + nested.path, { method: "POST", headers: nested.headers, body: nested.body })).text());
  const yoga = await startFromMemory(answerFile, "yoga");
  stops.push(yoga.stop);
  const graphqlJs = await startFromMemory(answerFile, "graphql-js");
  stops.push(graphqlJs.stop);

  const measured: [string, Server, BenchRequest][] = [
    ["floor, nested read", floor, nested],
    ["toolgate, nested read", toolgate, nested],
    ["toolgate, { __typename }", toolgate, typename],
    ["Yoga from memory, nested read", yoga, nested],
    ["Yoga from memory, { __typename }", yoga, typename],
    ["graphql-js from memory, nested read", graphqlJs, nested],
  ];
  for (let round = 1; round <= 3; round++) {
    const costs: string[] = [];
    for (const [name, server, request] of measured) costs.push(`${name} ${(await cpuPerRequest(server, request)).toFixed(2)}`);
    console.log(`${provider}, round ${round}, CPU ms/req: ${costs.join("; ")}`);
  }
} finally {
  for (const stop of stops.reverse()) await stop();
  await scratch.drop();
}
