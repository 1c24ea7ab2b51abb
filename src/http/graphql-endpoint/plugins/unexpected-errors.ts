// Execution errors are translated here, before Yoga's own masking sees them, so that an unexpected
// one is logged with the request's logger (its id on the line) and answered as INTERNAL_UNKNOWN.
// Yoga's masking (yoga.ts) then finds every error already coded and passes it on.
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import type { Context } from "../../../graphql/context.js";
import { maskError } from "../../../graphql/error-codes.js";

export function useUnexpectedErrorsLogged(): Plugin<Context> {
  return {
    onExecute({ args }) {
      const { logger } = args.contextValue as Context;
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result) || !result.errors?.length) return;
          const errors = result.errors.map((error) => maskError(error, (original) => logger.error({ err: original }, "unexpected GraphQL error")));
          setResult({ ...result, errors });
        },
      };
    },
  };
}
