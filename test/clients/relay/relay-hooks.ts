// What react-relay's hooks do with relay-runtime, without React: useLazyLoadQuery (fetch a query
// and retain it), useFragment (read a fragment from the store), usePaginationFragment's loadNext
// and useRefetchableFragment's refetch (run the compiled refetch query through node(id:)), and
// useMutation. Each reads the metadata relay-compiler put into the artifacts, as react-relay does.
import {
  commitMutation,
  createOperationDescriptor,
  fetchQuery,
  getPaginationMetadata,
  getPaginationVariables,
  getRefetchMetadata,
  getSelector,
  getValueAtPath,
  type ConcreteRequest,
  type Environment,
  type ReaderFragment,
  type SingularReaderSelector,
  type Variables,
} from "relay-runtime";

// The store's view of an object: fields by name, fragment references included.
export type FragmentData = Record<string, any>;

/** Fetches `query` from the network, keeps its data in the store, and returns what it selects. */
export async function loadQuery(environment: Environment, query: ConcreteRequest, variables: Variables): Promise<FragmentData> {
  const operation = createOperationDescriptor(query, variables);
  environment.retain(operation);
  await fetchQuery(environment, query, variables, { fetchPolicy: "network-only" }).toPromise();
  return environment.lookup(operation.fragment).data as FragmentData;
}

/** The data `fragment` selects through `fragmentRef`, read from the store (never from the network). */
export function readFragment(environment: Environment, fragment: ReaderFragment, fragmentRef: unknown): FragmentData {
  return environment.lookup(singularSelector(fragment, fragmentRef)).data as FragmentData;
}

/**
 * Fetches the next `count` items of the fragment's @connection with its pagination query; the
 * connection handler appends them to the connection in the store. False when there was no next page.
 */
export async function loadNext(environment: Environment, fragment: ReaderFragment, fragmentRef: unknown, count: number): Promise<boolean> {
  const { paginationRequest, paginationMetadata, connectionPathInFragmentData } = getPaginationMetadata(fragment, "loadNext");
  const selector = singularSelector(fragment, fragmentRef);
  const data = environment.lookup(selector).data as FragmentData;
  const { pageInfo } = getValueAtPath(data, connectionPathInFragmentData) as { pageInfo: { endCursor: string | null; hasNextPage: boolean } };
  if (!pageInfo.hasNextPage) return false;
  const baseVariables = { ...selector.owner.variables, ...selector.variables };
  const variables = getPaginationVariables("forward", count, pageInfo.endCursor, baseVariables, {}, paginationMetadata);
  await fetchQuery(environment, paginationRequest, { ...variables, ...identifierVariable(fragment, data) }).toPromise();
  return true;
}

/** Fetches the fragment again through its generated refetch query (`node(id:)`) and returns its new data. */
export async function refetch(environment: Environment, fragment: ReaderFragment, fragmentRef: unknown): Promise<FragmentData> {
  const { refetchableRequest, fragmentRefPathInResponse } = getRefetchMetadata(fragment, "refetch");
  const selector = singularSelector(fragment, fragmentRef);
  const data = environment.lookup(selector).data as FragmentData;
  const variables = { ...selector.owner.variables, ...selector.variables, ...identifierVariable(fragment, data) };
  const response = await loadQuery(environment, refetchableRequest, variables);
  return readFragment(environment, fragment, getValueAtPath(response, fragmentRefPathInResponse));
}

/** Commits `mutation`; the store normalises its result (and applies @appendNode/@deleteEdge). */
export function commit(environment: Environment, mutation: ConcreteRequest, variables: Variables): Promise<FragmentData> {
  return new Promise((resolve, reject) => {
    commitMutation(environment, {
      mutation,
      variables,
      onCompleted: (response, errors) => (errors?.length ? reject(new Error(JSON.stringify(errors))) : resolve(response as FragmentData)),
      onError: reject,
    });
  });
}

function singularSelector(fragment: ReaderFragment, fragmentRef: unknown): SingularReaderSelector {
  const selector = getSelector(fragment, fragmentRef);
  if (selector?.kind !== "SingularReaderSelector") throw new Error(`${fragment.name}: expected a reference to one object`);
  return selector;
}

// A fragment on a Node refetches by its global id: `id` into the query's `$id` (Relay's defaults).
function identifierVariable(fragment: ReaderFragment, data: FragmentData): Variables {
  const { identifierInfo } = getRefetchMetadata(fragment, "refetch");
  if (!identifierInfo?.identifierField) return {};
  return { [identifierInfo.identifierQueryVariableName]: data[identifierInfo.identifierField] };
}
