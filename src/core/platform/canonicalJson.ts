import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level (docs/contracts.md#hashes), written
 * directly (no intermediate sorted copies) because it runs for every tool on a cold index.
 * `undefined` object members are omitted, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  // String concatenation (V8 ropes) measured ~2× faster than collecting parts and joining.
  if (value === null || typeof value !== 'object') {
    return value === undefined || typeof value === 'function' ? 'null' : JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += canonicalJson(value[i]);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const v = record[key];
    if (v === undefined || typeof v === 'function') continue;
    if (!first) out += ',';
    first = false;
    out += `${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
