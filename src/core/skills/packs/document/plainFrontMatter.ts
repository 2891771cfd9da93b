import * as YAML from 'yaml';
import { closingQuote, isLetter, notPlain, plainCharacters, plainValue, skipSpaces, unquoted } from './plainScalars';

/**
 * A fast reader for the front matter most SKILL.md files have: top-level `key: value` lines whose
 * values are scalars (plain — continued on indented lines or not —, `"double"` without escapes,
 * `'single'` — on one line, or at the top level continued on indented lines —, `>`/`|` blocks over evenly indented lines), one-line flow lists and maps
 * (`[a, "b"]`, `{"k": ["v"]}`), block lists of one-line scalars, or one level of `key: value`
 * lines under a key. It builds the same value and the same nodes (kinds, key and value ranges) as
 * the `yaml` parser for that subset, so every position a problem reports is the parser's own;
 * anything else — comments, tabs, anchors, tags, blank lines inside a plain value, values YAML types
 * other than strings, integers and booleans, repeated keys, control characters — returns
 * `undefined` and the full parser reads the front matter. The YAML parser cost ~0.2 ms per real
 * front matter, the largest part of parsing a 10,000-skill library; this reader takes 95 % of the
 * real pool's front matters. A property test (plainFrontMatter.test.ts) checks that it and the parser
 * agree wherever it answers.
 */

export interface PlainFrontMatter {
  value: Record<string, unknown>;
  root: YAML.YAMLMap;
}

/** Keys the core schema reads as null or a boolean, and the one a plain object cannot hold as data. */
const NOT_PLAIN_KEYS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', '__proto__']);
/** Characters a plain scalar may not start with here (YAML indicators, and quotes handled apart). */
const INDICATOR = new Set('-?:,[]{}#&*!|>\'"%@`'.split('').map((c) => c.charCodeAt(0)));

const SPACE = 32;
const LF = 10;
const CR = 13;
const COLON = 58;
const HASH = 35;
const DASH = 45;
const DQUOTE = 34;
const SQUOTE = 39;
const COMMA = 44;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const GREATER = 62;
/** Flow collections nested deeper than this go to the parser (which bounds nesting; real metadata nests 3–4 deep). */
const MAX_FLOW_DEPTH = 8;
const PIPE = 124;
const CLOSE_BRACE = 125;
/** Characters a plain scalar inside a flow list may not hold here. */
const FLOW_INDICATOR = new Set('[]{}'.split('').map((c) => c.charCodeAt(0)));

interface Line {
  /** Offset of the line's first character. */
  start: number;
  /** End of its content (before `\r\n` or `\n`). */
  end: number;
  /** Offset of the next line. */
  next: number;
}

/** The front matter's value and nodes when it is in the plain subset (see the file comment), else `undefined`. */
export function readPlainFrontMatter(source: string): PlainFrontMatter | undefined {
  if (!plainCharacters(source)) return undefined;
  try {
    return new PlainReader(source).read();
  } catch (error) {
    if (error === notPlain) return undefined;
    throw error;
  }
}

class PlainReader {
  private pos = 0;

  constructor(private readonly source: string) {}

  read(): PlainFrontMatter {
    const root = new YAML.YAMLMap();
    const value: Record<string, unknown> = {};
    let line = this.nextLine();
    while (line) {
      if (line.end === line.start) {
        line = this.nextLine();
        continue;
      }
      const key = this.key(line.start, line.end, value);
      let after = key.end + 1;
      while (after < line.end && this.source.charCodeAt(after) === SPACE) after++;
      if (after < line.end) {
        if (after === key.end + 1) throw notPlain;
        const open = this.source.charCodeAt(after);
        const read =
          open === GREATER || open === PIPE
            ? this.blockScalar(after, line)
            : open === SQUOTE && closingQuote(this.source, after + 1, line.end) < 0
              ? this.singleQuotedLines(after, line)
              : this.value(after, line);
        if (read.node instanceof YAML.Scalar && read.node.type === 'PLAIN') this.continuation(read.node, line);
        root.items.push(new YAML.Pair(key.node, read.node));
        value[key.name] = read.node instanceof YAML.Scalar ? read.node.value : read.value;
        line = this.nextLine();
        continue;
      }
      const block = this.block();
      root.items.push(new YAML.Pair(key.node, block.node));
      value[key.name] = block.value;
      line = block.following;
    }
    const first = root.items[0];
    const last = root.items[root.items.length - 1];
    if (!first || !last) throw notPlain;
    const start = (first.key as YAML.Scalar).range?.[0] ?? 0;
    const end = (last.value as YAML.Node).range?.[2] ?? 0;
    root.range = [start, end, end];
    return { value, root };
  }

  private nextLine(): Line | undefined {
    const { source } = this;
    if (this.pos >= source.length) return undefined;
    const start = this.pos;
    const newline = source.indexOf('\n', start);
    const next = newline < 0 ? source.length : newline + 1;
    let end = newline < 0 ? source.length : newline;
    if (end > start && source.charCodeAt(end - 1) === CR) end--;
    this.pos = next;
    return { start, end, next };
  }

  /** `name:` at `start` (a letter or `_`, then letters, digits, `_` and `-`), not repeating a key of `into`. */
  private key(start: number, lineEnd: number, into: Record<string, unknown>): { name: string; node: YAML.Scalar; end: number } {
    const { source } = this;
    let i = start;
    const first = source.charCodeAt(i);
    if (!isLetter(first) && first !== 95) throw notPlain;
    for (i++; i < lineEnd; i++) {
      const c = source.charCodeAt(i);
      if (!(isLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === DASH)) break;
    }
    if (source.charCodeAt(i) !== COLON) throw notPlain;
    const name = source.slice(start, i);
    if (NOT_PLAIN_KEYS.has(name) || Object.prototype.hasOwnProperty.call(into, name)) throw notPlain;
    const node = new YAML.Scalar(name);
    node.range = [start, i, i];
    node.type = 'PLAIN';
    return { name, node, end: i };
  }

  /** A value on the rest of `line` from `start`: a one-line flow collection (`[a, "b"]`, `{"k": ["v"]}`) or a scalar. */
  private value(start: number, line: Line): { node: YAML.Node; value: unknown } {
    const open = this.source.charCodeAt(start);
    if (open !== OPEN_BRACKET && open !== OPEN_BRACE) return this.scalar(start, line);
    const read = this.flowValue(start, line.end, 1);
    if (skipSpaces(this.source, read.end, line.end) !== line.end) throw notPlain;
    read.node.range = [start, read.end, line.next];
    return read;
  }

  /** A flow item; collections nest at most MAX_FLOW_DEPTH deep here (deeper ones are the parser's, with its bounds). */
  private flowValue(start: number, limit: number, depth: number): { node: YAML.Node; value: unknown; end: number } {
    const open = this.source.charCodeAt(start);
    if ((open === OPEN_BRACKET || open === OPEN_BRACE) && depth > MAX_FLOW_DEPTH) throw notPlain;
    if (open === OPEN_BRACKET) return this.flowList(start, limit, depth);
    if (open === OPEN_BRACE) return this.flowMap(start, limit, depth);
    return this.scalarAt(start, limit, true);
  }

  /** `[item, item]` within `limit` (a trailing comma allowed, as YAML does). */
  private flowList(start: number, limit: number, depth: number): { node: YAML.YAMLSeq; value: unknown[]; end: number } {
    const { source } = this;
    const seq = new YAML.YAMLSeq();
    seq.flow = true;
    const list: unknown[] = [];
    let i = skipSpaces(source, start + 1, limit);
    while (source.charCodeAt(i) !== CLOSE_BRACKET) {
      if (i >= limit) throw notPlain;
      const item = this.flowValue(i, limit, depth + 1);
      seq.items.push(item.node);
      list.push(item.value);
      i = this.afterFlowItem(item.end, limit, CLOSE_BRACKET);
    }
    seq.range = [start, i + 1, i + 1];
    return { node: seq, value: list, end: i + 1 };
  }

  /** `{key: value, "key": value}` within `limit`: keys plain names or double-quoted, none repeated. */
  private flowMap(start: number, limit: number, depth: number): { node: YAML.YAMLMap; value: Record<string, unknown>; end: number } {
    const { source } = this;
    const map = new YAML.YAMLMap();
    map.flow = true;
    const fields: Record<string, unknown> = {};
    let i = skipSpaces(source, start + 1, limit);
    while (source.charCodeAt(i) !== CLOSE_BRACE) {
      if (i >= limit) throw notPlain;
      const quoted = source.charCodeAt(i) === DQUOTE;
      const key = quoted ? this.scalarAt(i, limit, true) : this.key(i, limit, fields);
      const name = key.node.value;
      if (typeof name !== 'string' || name === '' || NOT_PLAIN_KEYS.has(name) || Object.prototype.hasOwnProperty.call(fields, name)) throw notPlain;
      let at = quoted ? skipSpaces(source, key.end, limit) : key.end;
      if (source.charCodeAt(at) !== COLON) throw notPlain;
      at++;
      // After a plain key YAML needs a space before the value; after a quoted one (JSON style) not.
      if (!quoted && source.charCodeAt(at) !== SPACE) throw notPlain;
      const value = this.flowValue(skipSpaces(source, at, limit), limit, depth + 1);
      map.items.push(new YAML.Pair(key.node, value.node));
      fields[name] = value.value;
      i = this.afterFlowItem(value.end, limit, CLOSE_BRACE);
    }
    map.range = [start, i + 1, i + 1];
    return { node: map, value: fields, end: i + 1 };
  }

  /** Past an item of a flow collection: the next item's start, or the position of `close`. */
  private afterFlowItem(end: number, limit: number, close: number): number {
    const { source } = this;
    const i = skipSpaces(source, end, limit);
    if (source.charCodeAt(i) === COMMA) return skipSpaces(source, i + 1, limit);
    if (source.charCodeAt(i) !== close) throw notPlain;
    return i;
  }

  /** A one-line scalar from `start` to the end of `line`: its node (range ends past the line break) and value. */
  private scalar(start: number, line: Line): { node: YAML.Scalar; value: unknown } {
    const read = this.scalarAt(start, line.end, false);
    if (skipSpaces(this.source, read.end, line.end) !== line.end) throw notPlain;
    read.node.range = [start, read.end, line.next];
    return read;
  }

  /**
   * Indented lines after a top-level plain value go on with it (`description: Use when\n  the
   * user asks`): YAML folds them into one line, each trimmed, joined by a space. Lines that would
   * make it more than that (a blank line, which folds into a line break; a comment; `: `; a
   * leading indicator) leave the front matter to the parser.
   */
  private continuation(node: YAML.Scalar, line: Line): void {
    const { source } = this;
    let text = String(source.slice(node.range?.[0] ?? 0, node.range?.[1] ?? 0));
    let end = node.range?.[1] ?? 0;
    let next = line.next;
    for (;;) {
      const lineEnd = this.peekLineEnd(next);
      if (lineEnd === undefined || source.charCodeAt(next) !== SPACE) break;
      const from = skipSpaces(source, next, lineEnd.end);
      if (from === lineEnd.end || INDICATOR.has(source.charCodeAt(from))) throw notPlain;
      let to = lineEnd.end;
      while (source.charCodeAt(to - 1) === SPACE) to--;
      for (let i = from; i < to; i++) {
        const c = source.charCodeAt(i);
        if (c === COLON && (i + 1 === to || source.charCodeAt(i + 1) === SPACE)) throw notPlain;
        if (c === HASH && source.charCodeAt(i - 1) === SPACE) throw notPlain;
      }
      text += ` ${source.slice(from, to)}`;
      end = to;
      next = lineEnd.next;
    }
    if (next === line.next) return;
    // A blank line and then more indented text (a line break in the value) is left to the parser
    // by `read`: an indented line never starts a key.
    node.value = plainValue(text);
    node.range = [node.range?.[0] ?? 0, end, next];
    this.pos = next;
  }

  /**
   * A top-level block scalar: `>` or `|`, optionally `-`, then lines all indented alike (none
   * blank, none indented further), each ending in a line break. Folded (`>`) lines are joined by
   * a space, literal (`|`) ones by a line break, trailing spaces kept; `-` drops the final line
   * break. Other headers (`+`, an indentation digit, a comment) leave it to the parser.
   */
  private blockScalar(start: number, line: Line): { node: YAML.Scalar; value: string } {
    const { source } = this;
    const folded = source.charCodeAt(start) === GREATER;
    const strip = source.charCodeAt(start + 1) === DASH;
    if (skipSpaces(source, start + (strip ? 2 : 1), line.end) !== line.end) throw notPlain;
    const lines: string[] = [];
    let indent = 0;
    let next = line.next;
    for (let content = this.peekLineEnd(next); content; content = this.peekLineEnd(next)) {
      const from = skipSpaces(source, next, content.end);
      if (from === next || from === content.end) break;
      if (indent === 0) indent = from - next;
      else if (from - next !== indent) throw notPlain;
      if (content.next === source.length && source.charCodeAt(content.next - 1) !== LF) throw notPlain;
      lines.push(source.slice(from, content.end));
      next = content.next;
    }
    if (lines.length === 0) throw notPlain;
    const value = lines.join(folded ? ' ' : '\n') + (strip ? '' : '\n');
    const node = new YAML.Scalar(value);
    node.range = [start, next, next];
    node.type = folded ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL';
    this.pos = next;
    return { node, value };
  }

  /**
   * A top-level single-quoted scalar that goes on over the next lines (`description: 'Use when\n
   * the user asks'`, as YAML dumpers write long strings). YAML folds its lines: each is trimmed
   * (the first keeps its leading spaces, the last its spaces before the closing quote), one line
   * break between two lines becomes a space, and each blank line between them a line break. Its
   * lines must be indented (an unindented one is the parser's), and nothing but spaces may follow
   * the closing quote.
   */
  private singleQuotedLines(start: number, line: Line): { node: YAML.Scalar; value: string } {
    const { source } = this;
    let lineEnd = line.end;
    while (source.charCodeAt(lineEnd - 1) === SPACE) lineEnd--;
    let value = unquoted(source.slice(start + 1, lineEnd));
    let blank = 0;
    let next = line.next;
    for (;;) {
      const content = this.peekLineEnd(next);
      if (!content) throw notPlain;
      const from = skipSpaces(source, next, content.end);
      const close = closingQuote(source, from, content.end);
      if (close < 0 && from === content.end) {
        blank++;
        next = content.next;
        continue;
      }
      if (from === next) throw notPlain;
      let to = close;
      if (close < 0) {
        to = content.end;
        while (source.charCodeAt(to - 1) === SPACE) to--;
      }
      value += (blank > 0 ? '\n'.repeat(blank) : ' ') + unquoted(source.slice(from, to));
      blank = 0;
      next = content.next;
      if (close < 0) continue;
      if (skipSpaces(source, close + 1, content.end) !== content.end) throw notPlain;
      const node = new YAML.Scalar(value);
      node.range = [start, close + 1, next];
      node.type = 'QUOTE_SINGLE';
      this.pos = next;
      return { node, value };
    }
  }

  /** The end of the content of the line starting at `start` (before its `\r\n` or `\n`) and the next line's start; undefined at the end. */
  private peekLineEnd(start: number): { end: number; next: number } | undefined {
    const { source } = this;
    if (start >= source.length) return undefined;
    const newline = source.indexOf('\n', start);
    let end = newline < 0 ? source.length : newline;
    if (end > start && source.charCodeAt(end - 1) === CR) end--;
    return { end, next: newline < 0 ? source.length : newline + 1 };
  }

  /**
   * A scalar at `start` ending before `limit` (in a flow list, at the first `,` or `]`): its node,
   * value and end. Plain scalars hold no `: `, no ` #`, no final `:` (and in a flow list no flow
   * indicator or `:` at all).
   */
  private scalarAt(start: number, limit: number, inFlow: boolean): { node: YAML.Scalar; value: unknown; end: number } {
    const { source } = this;
    const open = source.charCodeAt(start);
    let valueEnd: number;
    let value: unknown;
    let type: YAML.Scalar.Type;
    if (open === DQUOTE) {
      const close = source.indexOf('"', start + 1);
      if (close < 0 || close >= limit) throw notPlain;
      const text = source.slice(start + 1, close);
      if (text.includes('\\')) throw notPlain;
      valueEnd = close + 1;
      value = text;
      type = 'QUOTE_DOUBLE';
    } else if (open === SQUOTE) {
      let i = start + 1;
      for (; i < limit; i++) {
        if (source.charCodeAt(i) !== SQUOTE) continue;
        if (source.charCodeAt(i + 1) === SQUOTE && i + 1 < limit) i++;
        else break;
      }
      if (i >= limit) throw notPlain;
      valueEnd = i + 1;
      value = source.slice(start + 1, i).replaceAll("''", "'");
      type = 'QUOTE_SINGLE';
    } else {
      if (INDICATOR.has(open)) throw notPlain;
      valueEnd = limit;
      for (let i = start; i < limit; i++) {
        const c = source.charCodeAt(i);
        if (inFlow && (c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE)) {
          valueEnd = i;
          break;
        }
        if (inFlow && (c === COLON || FLOW_INDICATOR.has(c))) throw notPlain;
        if (c === COLON && (i + 1 === limit || source.charCodeAt(i + 1) === SPACE)) throw notPlain;
        if (c === HASH && source.charCodeAt(i - 1) === SPACE) throw notPlain;
      }
      while (source.charCodeAt(valueEnd - 1) === SPACE) valueEnd--;
      if (valueEnd <= start) throw notPlain;
      value = plainValue(source.slice(start, valueEnd));
      type = 'PLAIN';
    }
    const node = new YAML.Scalar(value);
    node.range = [start, valueEnd, valueEnd];
    node.type = type;
    return { node, value, end: valueEnd };
  }

  /**
   * What follows `key:` at the end of its line: a list of scalars (`- item` lines, indented or
   * not) or a mapping of scalars (`sub: value` lines, indented), up to the next top-level key.
   */
  private block(): { node: YAML.YAMLSeq | YAML.YAMLMap; value: unknown; following: Line | undefined } {
    const { source } = this;
    let line = this.nextLine();
    while (line && line.end === line.start) line = this.nextLine();
    if (!line) throw notPlain;
    let indent = 0;
    while (indent < line.end - line.start && source.charCodeAt(line.start + indent) === SPACE) indent++;
    const isSeq = source.charCodeAt(line.start + indent) === DASH;
    if (!isSeq && indent === 0) throw notPlain;
    const seq = new YAML.YAMLSeq();
    const map = new YAML.YAMLMap();
    const list: unknown[] = [];
    const fields: Record<string, unknown> = {};
    let last: YAML.Node | undefined;
    while (line) {
      if (line.end === line.start) {
        line = this.nextLine();
        continue;
      }
      let at = line.start;
      while (at < line.end && source.charCodeAt(at) === SPACE) at++;
      if (at - line.start !== indent || (indent === 0 && source.charCodeAt(at) !== DASH)) break;
      if (isSeq) {
        if (source.charCodeAt(at) !== DASH || source.charCodeAt(at + 1) !== SPACE) throw notPlain;
        let itemStart = at + 1;
        while (itemStart < line.end && source.charCodeAt(itemStart) === SPACE) itemStart++;
        if (itemStart >= line.end) throw notPlain;
        const item = this.scalar(itemStart, line);
        if (seq.items.length === 0) seq.range = [at, at, at];
        seq.items.push(item.node);
        list.push(item.value);
        last = item.node;
      } else {
        const key = this.key(at, line.end, fields);
        const valueStart = key.end + 2;
        if (source.charCodeAt(key.end + 1) !== SPACE || valueStart >= line.end || source.charCodeAt(valueStart) === SPACE) throw notPlain;
        const item = this.value(valueStart, line);
        if (map.items.length === 0) map.range = [at, at, at];
        map.items.push(new YAML.Pair(key.node, item.node));
        fields[key.name] = item.value;
        last = item.node;
      }
      line = this.nextLine();
    }
    if (line && line.start !== line.end && source.charCodeAt(line.start) === SPACE) throw notPlain;
    const node = isSeq ? seq : map;
    const end = last?.range?.[2] ?? 0;
    node.range = [node.range?.[0] ?? 0, end, end];
    return { node, value: isSeq ? list : fields, following: line };
  }
}
