// The process logger: pino JSON lines on stdout. Lines about a request carry its id: they are
// logged through the request's child logger (the context's) or name it themselves.
import pino, { type Logger } from "pino";

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "toolgate" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
