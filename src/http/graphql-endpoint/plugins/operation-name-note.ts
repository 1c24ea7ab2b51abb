// Notes the executed operation's name in the request's context, for the request metrics; "" when
// it has none.
import { getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../../../graphql/context.js";

export function useOperationNameNote(): Plugin<Context> {
  return {
    onExecute({ args }) {
      args.contextValue.answer.operationName = getOperationAST(args.document, args.operationName)?.name?.value ?? "";
    },
  };
}
