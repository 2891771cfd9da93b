import { LineIndex } from './lineIndex';
import type { Span } from './skillProblems';

/** Small pure helpers of the skill document parser: text positions, JSON errors, field values. */

const EXPECTED: Record<string, string> = {
  steps: 'expected a list of strings',
  tags: 'expected a list of strings',
  preconditions: 'expected a list of strings',
  failure_modes: 'expected a list of strings',
  frames: 'expected a list of strings',
  requires: 'expected a list of environment variable names',
  triggers: 'expected a string or a list of strings',
  tools: 'expected a list of tool names or `{ tool, note }` entries',
  'allowed-tools': 'expected a space-separated string or a list of tool names',
  metadata: 'expected a mapping of string keys to string values',
  task_type: 'expected one of browser, api, code, domain, unknown',
};

export function describeExpected(key: string): string {
  return EXPECTED[key] ?? 'wrong type (expected text)';
}

/** How many values (objects, arrays, scalars) a JSON value holds, counting no further than `limit + 1`. */
export function countValues(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const next = stack.pop();
    count++;
    if (Array.isArray(next)) for (const item of next) stack.push(item);
    else if (isPlainObject(next)) for (const item of Object.values(next)) stack.push(item);
  }
  return count;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function startOf(span: Span): Span {
  return { line: span.line, column: span.column, endLine: span.line, endColumn: span.column };
}

export function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end < 0 ? text.length : end;
}

export function nextLine(text: string, end: number): number {
  return Math.min(end + 1, text.length);
}

export function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

export function messageOf(error: unknown): string {
  return firstLine(error instanceof Error ? error.message : String(error));
}

export function jsonErrorOffset(error: unknown, text: string): number {
  const message = error instanceof Error ? error.message : '';
  const position = /position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  const lineCol = /line (\d+) column (\d+)/.exec(message);
  if (lineCol) {
    const index = new LineIndex(text);
    return index.lineStart(Number(lineCol[1])) + Number(lineCol[2]) - 1;
  }
  return /end of JSON input/.test(message) ? text.length : 0;
}

export function cleanJsonMessage(error: unknown): string {
  return messageOf(error)
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/^JSON\.parse: /, '');
}

export function parentFolderName(file: string): string | undefined {
  const parts = file.split(/[\\/]/).filter(Boolean);
  return parts.length >= 2 ? parts[parts.length - 2] : undefined;
}

export function firstHeading(body: string): string {
  const match = /^#{1,3}\s+(.+)$/m.exec(body);
  return match?.[1]?.trim().slice(0, 200) ?? '';
}

export function humanize(name: string): string {
  const last = name.split('.').pop() ?? name;
  const words = last.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function normalizeTools(value: unknown): Array<{ tool: string; note?: string }> {
  if (!Array.isArray(value)) return [];
  const out: Array<{ tool: string; note?: string }> = [];
  for (const entry of value) {
    if (typeof entry === 'string' && entry.trim()) out.push({ tool: entry.trim() });
    else if (isPlainObject(entry) && typeof entry.tool === 'string' && entry.tool.trim()) {
      out.push(typeof entry.note === 'string' ? { tool: entry.tool.trim(), note: entry.note } : { tool: entry.tool.trim() });
    }
  }
  return out;
}
