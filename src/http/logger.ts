// The process logger: pino JSON lines on stdout, each tagged with the current request's id.
import pino, { type Logger } from "pino";
import { currentRequestId } from "./request-scope.js";

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "toolgate" },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: (existing) => {
        const requestId = currentRequestId();
        return requestId && !("requestId" in existing) ? { requestId } : {};
      },
    },
    destination,
  );
}
