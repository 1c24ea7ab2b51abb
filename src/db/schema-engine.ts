// Loads Prisma's WASM schema engine (offline-capable, unlike the native binary) bound to a driver adapter.
// On Node 20 the package's ESM entry imports a .wasm module, which needs a flag; we instantiate it by hand.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import type { MigrationAdapter } from "./connection.js";
import * as bindings from "@prisma/schema-engine-wasm/schema_engine_bg";

export const NO_FILTERS = { externalTables: [], externalEnums: [] };

let instantiated: Promise<void> | undefined;

function instantiateWasm(): Promise<void> {
  instantiated ??= (async () => {
    const require = createRequire(import.meta.url);
    const packageDir = path.dirname(require.resolve("@prisma/schema-engine-wasm"));
    const bytes = readFileSync(path.join(packageDir, "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bindings as unknown as WebAssembly.ModuleImports });
    const exports = instance.exports as WebAssembly.Exports & { __wbindgen_start(): void };
    (bindings as unknown as { __wbg_set_wasm(exports: WebAssembly.Exports): void }).__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return instantiated;
}

export interface OpenSchemaEngine {
  engine: SchemaEngine;
  /** Frees the engine and closes every connection it opened (an open SQLite handle would lock the file). */
  close(): Promise<void>;
}

export async function openSchemaEngine(
  { factory: adapterFactory, end }: MigrationAdapter,
  schema: { path: string; content: string },
  log: (message: string) => void = () => {},
): Promise<OpenSchemaEngine> {
  await instantiateWasm();
  const connections: SqlDriverAdapter[] = [];
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: async () => remember(await adapterFactory.connect()),
    connectToShadowDb: async () => remember(await adapterFactory.connectToShadowDb()),
  };
  function remember(connection: SqlDriverAdapter): SqlDriverAdapter {
    connections.push(connection);
    return connection;
  }
  const engine = await bindings.SchemaEngine.new(
    { datamodels: [[schema.path, schema.content]] },
    (message: string) => log(message),
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  return {
    engine,
    close: async () => {
      engine.free();
      await Promise.all(connections.map((connection) => connection.dispose()));
      await end();
    },
  };
}
