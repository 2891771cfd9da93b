import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The loaded sql.js module. Stores keep their rows in it; ranked search never asks it (the term
 * index lives in memory, search/termIndex.ts), so any sql.js build serves every search type.
 */
export interface SqlEngine {
  readonly sql: SqlJsStatic;
}

export interface SqlEngineOptions {
  /** The wasm bytes (the VS Code adapter reads them from the extension's own `dist/`). */
  wasmBinary?: Uint8Array;
  /** Or a path to `sql-wasm.wasm`; by default looked up beside the bundle or in node_modules. */
  wasmPath?: string;
}

/** Finds sql.js's wasm: beside the running bundle (dist/), else in node_modules. Never fetched. */
function locateSqlWasm(): string {
  const candidates = [path.join(__dirname, 'sql-wasm.wasm'), path.join(__dirname, '..', 'dist', 'sql-wasm.wasm')];
  try {
    candidates.push(path.join(path.dirname(require.resolve('sql.js')), 'sql-wasm.wasm'));
  } catch {
    // Bundled without node_modules: only the candidates beside the bundle apply.
  }
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`sql-wasm.wasm not found (looked in: ${candidates.join(', ')}). Run "npm run build".`);
  return found;
}

/** Loads sql.js from local bytes. */
export async function loadSqlEngine(options: SqlEngineOptions = {}): Promise<SqlEngine> {
  const wasmBinary = options.wasmBinary ?? readFileSync(options.wasmPath ?? locateSqlWasm());
  return { sql: await initSqlJs({ wasmBinary: toArrayBuffer(wasmBinary) }) };
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
