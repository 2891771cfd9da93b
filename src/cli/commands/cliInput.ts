import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { escapeForLine } from '../../core/platform/lineText';
import type { ToolInput } from '../../core/tools/toolRecord';
import type { CliIo } from '../cliCommand';

/**
 * The files the CLI reads (catalogs, query sets, snapshots), read so that bad input gets a clear
 * error and never a hang: only regular files (a FIFO, a device such as /dev/zero or a folder is
 * refused before it is opened for reading), at most MAX_INPUT_BYTES, and each JSONL line must be
 * a JSON object — an error names the file and line, with control characters escaped.
 */

/** Largest input file (bytes): far above any real catalog or query set, far below what would exhaust memory. */
const MAX_INPUT_BYTES = 256 * 2 ** 20;

/** A mistake in how the command was called: main prints it with the usage line and exits 2. */
export class UsageError extends Error {}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The bytes of `file` (what: "--tools" etc., for messages), after checking it is a regular file under `maxBytes`. */
export function readInputFile(file: string, what: string, maxBytes = MAX_INPUT_BYTES): Buffer {
  const shown = escapeForLine(file);
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch {
    throw new UsageError(`${what} ${shown}: no such file`);
  }
  if (!stats.isFile()) throw new UsageError(`${what} ${shown} is ${kindOf(stats)}; give a regular file`);
  const tooLarge = (size: number) => new UsageError(`${what} ${shown} is ${(size / 2 ** 20).toFixed(1)} MB; the limit is ${Math.round(maxBytes / 2 ** 20)} MB`);
  if (stats.size > maxBytes) throw tooLarge(stats.size);
  const fd = openSync(file, 'r');
  try {
    // The file may have been swapped or grown since the check: read at most one byte past the cap.
    if (!fstatSync(fd).isFile()) throw new UsageError(`${what} ${shown} is not a regular file`);
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, fstatSync(fd).size + 1));
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > maxBytes) throw tooLarge(length);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** Each non-blank line of a JSONL file as a JSON object, with its line number. */
function readJsonlObjects(file: string, what: string): Array<{ line: number; value: Record<string, unknown> }> {
  const out: Array<{ line: number; value: Record<string, unknown> }> = [];
  readInputFile(file, what)
    .toString('utf8')
    .split('\n')
    .forEach((text, i) => {
      const trimmed = text.trim();
      if (!trimmed) return;
      const where = `${escapeForLine(file)}:${i + 1}`;
      let value: unknown;
      try {
        value = JSON.parse(trimmed);
      } catch (error) {
        throw new Error(`${where}: not JSON (${escapeForLine(error instanceof Error ? error.message : String(error))})`);
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        throw new Error(`${where}: expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
      }
      out.push({ line: i + 1, value: value as Record<string, unknown> });
    });
  return out;
}

/** The objects of a JSONL file (query sets and the like). */
export function readJsonl<T>(file: string, what: string): T[] {
  return readJsonlObjects(file, what).map((row) => row.value as T);
}

/**
 * A tool catalog (`--tools FILE.jsonl`): each line a tool with a string `name`. A name given on
 * more than one line is reported on stderr (the later line replaces the earlier, as the
 * extension's catalog does with duplicates).
 */
export function readToolCatalog(file: string, io: CliIo): ToolInput[] {
  const lines = new Map<string, number[]>();
  const tools = readJsonlObjects(file, '--tools').map(({ line, value: row }) => {
    if (typeof row.name !== 'string' || !row.name) throw new Error(`${escapeForLine(file)}:${line}: "name" must be a non-empty string`);
    lines.set(row.name, [...(lines.get(row.name) ?? []), line]);
    return toolInputOf(row, row.name);
  });
  const duplicates = [...lines].filter(([, at]) => at.length > 1);
  if (duplicates.length > 0) {
    const shown = duplicates.slice(0, 10).map(([name, at]) => `"${escapeForLine(name)}" (lines ${at.join(', ')})`);
    const more = duplicates.length > 10 ? ` and ${duplicates.length - 10} more` : '';
    io.stderr(
      `toolshed: ${escapeForLine(file)}: ${duplicates.length} tool name(s) given more than once, the last line of each is used: ${shown.join(', ')}${more}\n`,
    );
  }
  return tools;
}

function toolInputOf(row: Record<string, unknown>, name: string): ToolInput {
  return {
    name,
    description: typeof row.description === 'string' ? row.description : '',
    inputSchema: row.inputSchema ?? row.parameters,
    tags: Array.isArray(row.tags) ? row.tags.filter((t): t is string => typeof t === 'string') : [],
    source: typeof row.source === 'string' ? row.source : undefined,
    examples: Array.isArray(row.examples) ? (row.examples as ToolInput['examples']) : undefined,
  };
}

/** Tool rows already read (e.g. filtered from a bigger set) as tool inputs; each needs a string `name`. */
export function toToolInputs(rows: ReadonlyArray<Record<string, unknown>>): ToolInput[] {
  return rows.map((row, i) => {
    if (!row || typeof row.name !== 'string') throw new Error(`tools row ${i + 1}: "name" must be a string`);
    return toolInputOf(row, row.name);
  });
}
