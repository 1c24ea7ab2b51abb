// The document GraphiQL opens with: the main reads and one mutation, ready to run.
export const GRAPHIQL_DEFAULT_QUERY = `# Welcome to toolgate. Send your API token as  Authorization: Bearer <token>  (Headers tab).
query Me {
  me { id name email plan admin }
}
`;
