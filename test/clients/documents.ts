// The documents the Apollo and urql suites run; docs/graphql.md quotes this file. Each selects `id`
// (Apollo Client and Graphcache normalise objects by `__typename` and `id`), and the connection's
// `edges { cursor }` and `pageInfo` that Apollo's relayStylePagination and Graphcache's
// relayPagination merge pages with.
import { parse } from "graphql";

export const ENVIRONMENT_GRANTS = parse(`
  query EnvironmentGrants($environmentId: UUID!, $first: Int!, $after: String) {
    environment(id: $environmentId) {
      id
      name
      grants(first: $first, after: $after) {
        edges {
          cursor
          node {
            id
            uuid
            lifecycle
            automatic
            release { id name version }
          }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const GRANT_BY_ID = parse(`
  query GrantById($id: ID!) {
    node(id: $id) {
      id
      ... on Grant { automatic }
    }
  }
`);

export const DELETE_GRANT = parse(`
  mutation DeleteGrant($uuid: UUID!) {
    deleteGrant(id: $uuid) { id lifecycle }
  }
`);
