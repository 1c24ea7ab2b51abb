// One grant: a fragment that refetches itself through `node(id:)`, and the mutations that add a
// grant to a grants connection (@appendNode) or take it out (@deleteEdge). The grant mutations take
// the grant's `uuid`; Relay identifies the grant by its global `id`.
import { graphql } from "relay-runtime";

export const grantDetailsFragment = graphql`
  fragment grantDetails_grant on Grant @refetchable(queryName: "grantDetailsRefetchQuery") {
    id
    uuid
    lifecycle
    automatic
    release {
      name
      version
    }
  }
`;

export const createGrantMutation = graphql`
  mutation grantDetailsCreateMutation($environmentId: UUID!, $releaseId: UUID!, $connections: [ID!]!) {
    createGrant(environmentId: $environmentId, input: { release: { type: BY_ID, releaseId: $releaseId } })
    @appendNode(connections: $connections, edgeTypeName: "GrantEdge") {
      id
      ...grantDetails_grant
    }
  }
`;

export const deleteGrantMutation = graphql`
  mutation grantDetailsDeleteMutation($uuid: UUID!, $connections: [ID!]!) {
    deleteGrant(id: $uuid) {
      id @deleteEdge(connections: $connections)
      lifecycle
    }
  }
`;
