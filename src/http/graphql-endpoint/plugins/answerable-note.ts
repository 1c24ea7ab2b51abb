// Tells the read cache whether what was executed may be kept (src/http/api/answerable.ts), as the
// REST executor does.
import type { Plugin } from "graphql-yoga";
import { noteAnswerable } from "../../api/answerable.js";

export function useAnswerableNote(): Plugin {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          noteAnswerable(args, result);
        },
      };
    },
  };
}
