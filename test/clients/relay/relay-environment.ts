// The Relay environment a toolgate client creates: Relay's own quick-start fetch function, plus the
// bearer token. docs/graphql.md quotes this file.
import { Environment, Network, type FetchFunction } from "relay-runtime";

export function createRelayEnvironment(endpoint: string, token: string): Environment {
  const fetchGraphQL: FetchFunction = async (request, variables) => {
    const resp = await fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: request.text, variables }),
    });
    if (!resp.ok) {
      throw new Error("Response failed.");
    }
    return await resp.json();
  };

  return new Environment({ network: Network.create(fetchGraphQL) });
}
