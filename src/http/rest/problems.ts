// Rewords GraphQL's variable-coercion messages for REST clients, who never wrote a variable:
//   Variable "$body" got invalid value "yes" at "body.automatic"; Boolean cannot represent …
// becomes
//   body.automatic: Boolean cannot represent …
// and a variable bound to a path parameter is named as such (path.grantId: …).
const COERCION = /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]+)")?; (.*)$/s;
const MISSING = /^Variable "\$(\w+)" of (?:required|non-null) type "[^"]+" was not provided\.$/;

export function restProblem(message: string, pathParams: Record<string, string>): string {
  const where = (variable: string) => (variable in pathParams ? `path.${variable}` : variable);
  const coercion = COERCION.exec(message);
  if (coercion) {
    const [, variable, value, at, reason] = coercion;
    const location = at ? (variable! in pathParams ? `path.${at}` : at) : where(variable!);
    return reason!.includes(value!) ? `${location}: ${reason}` : `${location}: ${value} is invalid: ${reason}`;
  }
  const missing = MISSING.exec(message);
  if (missing) return `${where(missing[1]!)}: required`;
  return message;
}
