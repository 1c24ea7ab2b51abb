// The benchmark's scenarios: what is requested, and the toolgate/floor ratio it targets.
import type { Subject } from "./dataset.js";

export const NESTED_GRAPHQL_QUERY = "query ($id: UUID!) { environment(id: $id) { name activeGrants { uuid release { name version owner { name } } } } }";

export interface BenchRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Scenario {
  id: string;
  title: string;
  /** toolgate's req/s over the floor's that the issue asks for. */
  target: number;
  /** Sent in turn by every connection (autocannon cycles through them). */
  requests(subject: Subject): BenchRequest[];
}

const authorized = (subject: Subject) => ({ authorization: `Bearer ${subject.token}` });

export const SCENARIOS: Scenario[] = [
  {
    id: "healthz",
    title: "/healthz vs bare node:http",
    target: 0.6,
    requests: () => [{ method: "GET", path: "/healthz", headers: {} }],
  },
  {
    id: "grant-view",
    title: "REST GET grant view",
    target: 0.5,
    requests: (subject) =>
      subject.grantIds.map((id) => ({ method: "GET", path: `/v1/environment-tool-middleware-grants/${id}`, headers: authorized(subject) })),
  },
  {
    id: "release",
    title: "REST GET release",
    target: 0.5,
    requests: (subject) => subject.releaseIds.map((id) => ({ method: "GET", path: `/v1/tool-releases/${id}`, headers: authorized(subject) })),
  },
  {
    id: "grant-list",
    title: "REST list of 50 grant views",
    target: 0.7,
    requests: (subject) => [{ method: "GET", path: `/v1/envs/${subject.environmentId}/tool-middlewares`, headers: authorized(subject) }],
  },
  {
    id: "graphql-nested",
    title: "GraphQL environment → 50 grants → release → owner",
    target: 0.5,
    requests: (subject) => [
      {
        method: "POST",
        path: "/graphql",
        headers: { ...authorized(subject), "content-type": "application/json" },
        body: JSON.stringify({ query: NESTED_GRAPHQL_QUERY, variables: { id: subject.environmentId } }),
      },
    ],
  },
];
