/**
 * Just enough TOML for `toolshed setup codex`: find, add and remove one `[a.b]` table that
 * Toolshed wrote in a Codex `config.toml`, leaving every other byte of the file as it was. No
 * TOML library: the scanner reads the file's structure (comments, key = value lines, table
 * headers, multi-line strings and arrays) without evaluating values, which is all it takes to
 * know where a table starts and ends and whether a key is already defined some other way.
 */

export class TomlShapeError extends Error {}

interface ScannedLine {
  /** Byte offset (in characters) where the logical line starts and ends (after its newline). */
  start: number;
  end: number;
  /** `[x.y]` / `[[x.y]]` header: the dotted path; a key line: the key's dotted path under the current table. */
  header?: string[];
  key?: string[];
  comment?: string;
}

const BARE = /^[A-Za-z0-9_-]+/;

function readKey(text: string, at: number, lineNo: number): { parts: string[]; next: number } {
  const parts: string[] = [];
  let i = at;
  for (;;) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    const quote = text[i];
    if (quote === '"' || quote === "'") {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== quote && text[j] !== '\n') {
        if (quote === '"' && text[j] === '\\') {
          value += text[j + 1] ?? '';
          j += 2;
          continue;
        }
        value += text[j];
        j++;
      }
      if (text[j] !== quote) throw new TomlShapeError(`line ${lineNo}: a quoted key is not closed`);
      parts.push(value);
      i = j + 1;
    } else {
      const match = BARE.exec(text.slice(i, i + 200));
      if (!match) throw new TomlShapeError(`line ${lineNo}: expected a key`);
      parts.push(match[0]);
      i += match[0].length;
    }
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] !== '.') return { parts, next: i };
    i++;
  }
}

/** Skips one value from `at`; returns the index after it (strings, arrays and inline tables may span lines). */
function skipValue(text: string, at: number, lineNo: number): number {
  let i = at;
  let depth = 0;
  for (;;) {
    if (i >= text.length) {
      if (depth > 0) throw new TomlShapeError(`line ${lineNo}: an array or inline table is not closed`);
      return i;
    }
    const c = text[i];
    if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      const fence = text.slice(i, i + 3);
      let j = i + 3;
      for (;;) {
        const close = text.indexOf(fence, j);
        if (close < 0) throw new TomlShapeError(`line ${lineNo}: a multi-line string is not closed`);
        if (fence === '"""' && /(^|[^\\])(\\\\)*\\$/.test(text.slice(j, close))) {
          j = close + 1;
          continue;
        }
        i = close + 3;
        while (text[i] === fence[0]) i++;
        break;
      }
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += c === '"' && text[j] === '\\' ? 2 : 1;
      if (text[j] !== c) throw new TomlShapeError(`line ${lineNo}: a string is not closed`);
      i = j + 1;
      continue;
    }
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth < 0) throw new TomlShapeError(`line ${lineNo}: an unmatched "${c}"`);
    } else if (c === '#') {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol;
      continue;
    } else if (c === '\n' && depth === 0) return i;
    i++;
  }
}

/** The file's logical lines; throws TomlShapeError on a shape this scanner cannot read. */
export function scanToml(text: string): ScannedLine[] {
  const lines: ScannedLine[] = [];
  let i = 0;
  let table: string[] = [];
  const lineNo = (at: number) => text.slice(0, at).split('\n').length;
  while (i < text.length) {
    const start = i;
    while (text[i] === ' ' || text[i] === '\t' || text[i] === '\r') i++;
    const c = text[i];
    let line: ScannedLine;
    if (c === undefined || c === '\n' || c === '#') {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol;
      line = { start, end: 0, ...(c === '#' ? { comment: text.slice(start, i).trim() } : {}) };
    } else if (c === '[') {
      const array = text[i + 1] === '[';
      const { parts, next } = readKey(text, i + (array ? 2 : 1), lineNo(i));
      const close = array ? ']]' : ']';
      if (!text.startsWith(close, next)) throw new TomlShapeError(`line ${lineNo(i)}: a table header is not closed`);
      i = skipValue(text, next + close.length, lineNo(i));
      table = parts;
      line = { start, end: 0, header: parts };
    } else {
      const { parts, next } = readKey(text, i, lineNo(i));
      if (text[next] !== '=') throw new TomlShapeError(`line ${lineNo(i)}: expected "key = value"`);
      i = skipValue(text, next + 1, lineNo(i));
      line = { start, end: 0, key: [...table, ...parts] };
    }
    if (i < text.length && text[i] !== '\n') throw new TomlShapeError(`line ${lineNo(start)}: unexpected text after a value`);
    i = i < text.length ? i + 1 : i;
    line.end = i;
    lines.push(line);
  }
  return lines;
}

const samePath = (a: readonly string[], b: readonly string[]) => a.length >= b.length && b.every((part, i) => a[i] === part);

/** `[mcp_servers.toolshed]` as Toolshed writes it (bare keys where TOML allows). */
function headerText(path: readonly string[]): string {
  return `[${path.map((part) => (/^[A-Za-z0-9_-]+$/.test(part) ? part : JSON.stringify(part))).join('.')}]`;
}

/** A TOML basic string. */
export function tomlString(value: string): string {
  return `"${value.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`;
}

/** The marker comment on the first line of a table Toolshed wrote; `(eof)` records that the file had no final newline before. */
const MARKER = '# written by `toolshed setup`; `toolshed setup codex --remove` removes it';

export interface TomlTableState {
  /** Toolshed's table as it is in the file, or undefined. */
  ours?: { start: number; end: number; body: string };
  /** The table path is defined in the file in a way Toolshed did not write. */
  foreign: boolean;
}

/** Where `path`'s table is and whether it is Toolshed's. */
export function findTable(text: string, path: readonly string[]): TomlTableState {
  const lines = scanToml(text);
  let ours: TomlTableState['ours'];
  let foreign = false;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const header = line.header;
    if (header && header.length === path.length && samePath(header, path) && lines[n + 1]?.comment?.startsWith(MARKER) && !ours) {
      let end = n + 1;
      while (end + 1 < lines.length && !lines[end + 1]!.header) end++;
      // Blank lines before the next table separate it from this one; they are not part of the table.
      while (end > n + 1 && !lines[end]!.key && !lines[end]!.comment) end--;
      ours = { start: line.start, end: lines[end]!.end, body: text.slice(line.start, lines[end]!.end) };
      n = end;
      continue;
    }
    // A table at or under the path that is not Toolshed's, or a key that defines it (`toolshed.command = …`) or
    // closes a table above it (an inline `mcp_servers = {…}` takes no new keys).
    if (header && samePath(header, path)) foreign = true;
    if (line.key && (samePath(line.key, path) || samePath(path, line.key))) foreign = true;
  }
  return { ours, foreign };
}

/** The table's text: header, marker, then `key = value` lines (values already TOML). */
function tableText(path: readonly string[], values: ReadonlyArray<readonly [string, string]>, eof: boolean): string {
  return [headerText(path), `${MARKER}${eof ? ' (eof)' : ''}`, ...values.map(([key, value]) => `${key} = ${value}`)].join('\n') + '\n';
}

/**
 * The file with Toolshed's table set to `values`: replaced where it is, else appended after a
 * blank line. Throws TomlShapeError when the file cannot be read or the path is defined otherwise.
 */
export function setTable(text: string, path: readonly string[], values: ReadonlyArray<readonly [string, string]>): string {
  const state = findTable(text, path);
  if (state.foreign) throw new TomlShapeError(`${headerText(path)} is already defined by something other than toolshed setup`);
  if (state.ours) {
    const eof = state.ours.body.split('\n')[1]?.endsWith('(eof)') ?? false;
    return text.slice(0, state.ours.start) + tableText(path, values, eof) + text.slice(state.ours.end);
  }
  const eof = text.length > 0 && !text.endsWith('\n');
  return `${text}${eof ? '\n' : ''}${text.length ? '\n' : ''}${tableText(path, values, eof)}`;
}

/** The file without Toolshed's table (exactly the bytes adding it added); unchanged when it is not there. */
export function removeTable(text: string, path: readonly string[]): string {
  const state = findTable(text, path);
  if (!state.ours) return text;
  const eof = state.ours.body.split('\n')[1]?.endsWith('(eof)') ?? false;
  let before = text.slice(0, state.ours.start);
  const after = text.slice(state.ours.end);
  if (before.endsWith('\n\n')) before = before.slice(0, -1);
  if (eof && after === '' && before.endsWith('\n')) before = before.slice(0, -1);
  return before + after;
}

/** A JSON-like value as TOML (strings, numbers, booleans, arrays, inline tables). */
export function tomlValue(value: unknown): string {
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (value && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([key, v]) => `${/^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key)} = ${tomlValue(v)}`)
      .join(', ')} }`;
  throw new TomlShapeError(`cannot write ${String(value)} as TOML`);
}
