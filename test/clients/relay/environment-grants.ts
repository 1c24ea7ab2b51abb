// An environment's grants, a page at a time: the query, and a fragment whose @connection over
// Environment.grants pages through the refetch query relay-compiler derives from @refetchable
// (`node(id:)`). The compiler writes the artifacts to __generated__; babel-plugin-relay replaces
// each `graphql` tag by an import of its artifact.
import { graphql } from "relay-runtime";

export const environmentGrantsQuery = graphql`
  query environmentGrantsQuery($environmentId: UUID!) {
    environment(id: $environmentId) {
      name
      ...environmentGrants_environment
    }
  }
`;

export const environmentGrantsFragment = graphql`
  fragment environmentGrants_environment on Environment
  @refetchable(queryName: "environmentGrantsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 2 }, cursor: { type: "String" }) {
    grants(first: $count, after: $cursor) @connection(key: "environmentGrants_grants") {
      __id
      edges {
        node {
          uuid
          ...grantDetails_grant
        }
      }
    }
  }
`;
