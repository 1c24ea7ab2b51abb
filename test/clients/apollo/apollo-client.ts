// The Apollo Client a toolgate client creates: default HttpLink and InMemoryCache, and Apollo's
// relayStylePagination for every connection (keyArgs: the arguments that filter the list).
// docs/graphql.md quotes this file.
import { ApolloClient, HttpLink, InMemoryCache } from "@apollo/client";
import { relayStylePagination } from "@apollo/client/utilities";

export function createApolloClient(uri: string, token: string): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri, headers: { Authorization: `Bearer ${token}` } }),
    cache: new InMemoryCache({
      typePolicies: {
        Query: { fields: { environments: relayStylePagination() } },
        Account: { fields: { environments: relayStylePagination(), toolReleases: relayStylePagination(["lifecycle", "name"]) } },
        Environment: { fields: { grants: relayStylePagination(["includeDeleted", "name"]) } },
        ToolRelease: { fields: { grants: relayStylePagination() } },
      },
    }),
  });
}
