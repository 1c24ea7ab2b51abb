// The urql client a toolgate client creates: Graphcache for normalised caching, with its
// relayPagination for every connection, then the default fetchExchange (queries as GET, mutations
// as POST). docs/graphql.md quotes this file.
import { Client, fetchExchange } from "@urql/core";
import { cacheExchange } from "@urql/exchange-graphcache";
import { relayPagination } from "@urql/exchange-graphcache/extras";

export function createUrqlClient(url: string, token: string): Client {
  return new Client({
    url,
    fetchOptions: { headers: { Authorization: `Bearer ${token}` } },
    exchanges: [
      cacheExchange({
        resolvers: {
          Query: { environments: relayPagination() },
          Account: { environments: relayPagination(), toolReleases: relayPagination() },
          Environment: { grants: relayPagination() },
          ToolRelease: { grants: relayPagination() },
        },
      }),
      fetchExchange,
    ],
  });
}
