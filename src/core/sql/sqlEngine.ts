import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Which full-text engine the loaded sql.js build offers. The published sql.js has FTS3/FTS4
 * but not FTS5, so `fts4` is the usual answer. No store keeps a full-text table: ranked search
 * runs over the in-memory term statistics (search/bm25f.ts, search/impactPostings.ts). The
 * engine is reported with search results, and `none` (a build without one, or `--engine none`)
 * keeps the behaviour a build without full-text search has always had: regex + exact matching,
 * with ranked requests falling back to regex where the settings allow.
 */
export type FtsEngine = 'fts5' | 'fts4' | 'none';

export interface SqlEngine {
  readonly sql: SqlJsStatic;
  readonly fts: FtsEngine;
}

export interface SqlEngineOptions {
  /** The wasm bytes (the VS Code adapter reads them from the extension's own `dist/`). */
  wasmBinary?: Uint8Array;
  /** Or a path to `sql-wasm.wasm`; by default looked up beside the bundle or in node_modules. */
  wasmPath?: string;
  /**
   * Restrict the full-text engine, e.g. `['fts4', 'none']` to pretend FTS5 is missing or
   * `['none']` to disable FTS (tests of the fallbacks; a setting for users).
   */
  allowedFts?: readonly FtsEngine[];
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

/** Loads sql.js from local bytes and detects the best available FTS engine. */
export async function loadSqlEngine(options: SqlEngineOptions = {}): Promise<SqlEngine> {
  const wasmBinary = options.wasmBinary ?? readFileSync(options.wasmPath ?? locateSqlWasm());
  const sql = await initSqlJs({ wasmBinary: toArrayBuffer(wasmBinary) });
  return { sql, fts: detectFts(sql, options.allowedFts ?? ['fts5', 'fts4', 'none']) };
}

function detectFts(sql: SqlJsStatic, allowed: readonly FtsEngine[]): FtsEngine {
  const probe = new sql.Database();
  try {
    for (const engine of ['fts5', 'fts4'] as const) {
      if (!allowed.includes(engine)) continue;
      try {
        probe.run(`CREATE VIRTUAL TABLE probe_${engine} USING ${engine}(body)`);
        return engine;
      } catch {
        // Module not compiled into this build; try the next one.
      }
    }
    return 'none';
  } finally {
    probe.close();
  }
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
