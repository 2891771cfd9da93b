import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level (RFC Appendix B `sort_keys=True`), written
 * directly (no intermediate sorted copies) because it runs for every tool on a cold index.
 * `undefined` object members are omitted, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

function write(value: unknown, out: string[]): void {
  if (value === null || typeof value !== 'object') {
    out.push(value === undefined || typeof value === 'function' ? 'null' : JSON.stringify(value));
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      write(value[i], out);
    }
    out.push(']');
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out.push('{');
  let first = true;
  for (const key of keys) {
    const v = record[key];
    if (v === undefined || typeof v === 'function') continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(v, out);
  }
  out.push('}');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
