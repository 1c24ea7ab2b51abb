// The floor as its own process, for the benchmark harness (bench/servers.ts):
//
//   node --import tsx bench/floor/server.ts <database-url> [port]
//
// Prints `floor listening on http://…` once it accepts connections; stops on SIGTERM.
import type { AddressInfo } from "node:net";
import { createFloorServer, openFloorStore } from "./app.js";

const [databaseUrl, port = "0"] = process.argv.slice(2);
if (!databaseUrl) throw new Error("usage: bench/floor/server.ts <database-url> [port]");
const store = openFloorStore(databaseUrl);
const server = createFloorServer(store);
server.listen(Number(port), "127.0.0.1", () => {
  console.log(`floor listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
const stop = () => server.close(() => void store.close().then(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
