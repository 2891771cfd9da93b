import * as YAML from 'yaml';
import { LineIndex } from './lineIndex';
import { frontMatterBlock, quotedValueMessage, quoteUnparsablePlainValues } from './frontMatter';
import { readPlainFrontMatter } from './plainFrontMatter';
import { BoundedProblems } from './boundedProblems';
import type { SpanSource } from './boundedProblems';
import { FILE_START, PROBLEM_CODES } from './skillProblems';
import type { ProblemCode, ProblemSeverity, SkillProblem } from './skillProblems';
import { unstorableValue } from './yamlStructure';
import { YamlLocator, type AnyNode, type Located } from './yamlLocated';
import { detectSkillFormat, SKILL_FILE_FORMATS_TEXT } from './skillFileNames';
import { wholeFileRefusal } from './wholeFileRefusal';
import { SkillEntries } from './skillEntries';
import type { DocumentFormat, ParsedSkill } from './parsedSkill';
import { cleanJsonMessage, countValues, isPlainObject, jsonErrorOffset, lineEnd, messageOf } from './documentValues';

/**
 * Parses ONE skill document (any format) into normalised skill content plus problems with exact
 * positions: this file reads each format into entries, `SkillEntries` (skillEntries.ts) turns
 * each entry into a skill. Pure and synchronous: the editor calls it on every keystroke, the pack loader for
 * every file. It never throws; any failure becomes a problem. A skill with an error is not
 * returned (it is "skipped"); warnings leave it in.
 *
 * Work per file is bounded so one hostile file cannot stall the host: at most `maxProblems`
 * problems are reported (positions are computed only for those; the rest are counted in one
 * closing warning), and parsing stops with an error once `budgetMs` has passed.
 */

export interface ParseOptions {
  /** Force a format; by default detected from the file name. */
  format?: DocumentFormat;
  /** Pack name used for generated names `pack.<pack>.<slug>` (default `local`). */
  packName?: string;
  /** Path of the file relative to its pack root (for generated names); default: the base name. */
  relativePath?: string;
  /** Characters above which the document is rejected (default 1 MiB). */
  maxChars?: number;
  /** Problems listed per file; more are counted in one closing warning (default 200). */
  maxProblems?: number;
  /** Time after which parsing stops with an error (default 5,000 ms). */
  budgetMs?: number;
  /** Errors after which parsing stops: the file is not a skill file gone slightly wrong (default 1,000). */
  maxErrors?: number;
  /** Characters one skill may hold once YAML aliases are expanded, keys and body included (default 512 Ki). */
  maxSkillChars?: number;
  /** Characters all skills of one file may hold together once aliases are expanded (default 1 Mi). */
  maxExpandedFileChars?: number;
}

export interface ParseResult {
  format: DocumentFormat | undefined;
  skills: ParsedSkill[];
  problems: SkillProblem[];
}

const DEFAULT_MAX_CHARS = 1024 * 1024;
const DEFAULT_MAX_PROBLEMS = 200;
const DEFAULT_PARSE_BUDGET_MS = 5000;
const DEFAULT_MAX_ERRORS = 1000;
export { detectSkillFormat };
/** JSON documents with more values than this skip the (slow) YAML pass for exact positions. */
const JSON_POSITION_LIMIT = 5000;
export function parseSkillDocument(text: string, fileName: string, options: ParseOptions = {}): ParseResult {
  const format = options.format ?? detectSkillFormat(fileName);
  const ctx = new ParseContext(text, fileName, options, format);
  try {
    ctx.run();
  } catch (error) {
    // Defensive: nothing above should throw, but a bug must not take the editor down.
    ctx.out.add(FILE_START, 'error', PROBLEM_CODES.parseError, `Could not parse this file: ${error instanceof Error ? error.message : String(error)}`);
    ctx.entries.skills.length = 0;
  }
  // One skill past the bound after alias expansion: nothing from this file loads.
  if (ctx.entries.expanded.exceeded) ctx.entries.skills.length = 0;
  ctx.out.close();
  return { format, skills: ctx.entries.skills, problems: ctx.out.list };
}

/** Reads the document in its format (markdown front matter, YAML, JSON, JSONL) into entries for `SkillEntries`. */
class ParseContext {
  readonly out: BoundedProblems;
  readonly entries: SkillEntries;
  private readonly index: LineIndex;
  private readonly yaml: YamlLocator;

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly options: ParseOptions,
    private readonly format: DocumentFormat | undefined,
  ) {
    this.index = new LineIndex(text);
    this.out = new BoundedProblems(file, {
      maxProblems: Math.max(1, options.maxProblems ?? DEFAULT_MAX_PROBLEMS),
      maxErrors: options.maxErrors ?? DEFAULT_MAX_ERRORS,
      budgetMs: options.budgetMs ?? DEFAULT_PARSE_BUDGET_MS,
    });
    this.yaml = new YamlLocator(this.index, file, this.out);
    this.entries = new SkillEntries(file, options, this.out, this.yaml);
  }

  run(): void {
    const refusal = wholeFileRefusal(this.text, this.options.maxChars ?? DEFAULT_MAX_CHARS);
    if (refusal) {
      this.problem(refusal.at === undefined ? FILE_START : this.index.span(refusal.at, refusal.at + 1), 'error', refusal.code, refusal.message);
      return;
    }
    switch (this.format) {
      case 'md':
      case 'skill-md':
        this.parseMarkdown(this.format);
        return;
      case 'yaml':
        this.parseYaml();
        return;
      case 'json':
        this.parseJson();
        return;
      case 'jsonl':
        this.parseJsonl();
        return;
      default:
        this.problem(FILE_START, 'error', PROBLEM_CODES.invalidValue, `Unknown skill file type: use ${SKILL_FILE_FORMATS_TEXT}.`);
    }
  }

  private problem(
    span: SpanSource,
    severity: ProblemSeverity,
    code: ProblemCode,
    message: string | (() => string),
    extra: { skillName?: string; data?: Record<string, unknown> } | (() => { skillName?: string; data?: Record<string, unknown> }) = {},
  ): void {
    this.out.add(span, severity, code, message, extra);
  }

  // ── formats ──────────────────────────────────────────────────────────────

  private parseMarkdown(format: 'md' | 'skill-md'): void {
    const block = frontMatterBlock(this.text);
    if (!block.found) {
      this.problem(this.index.lineSpan(1), 'error', block.code, block.message);
      return;
    }
    const { yamlStart, closeStart, closeEnd, body } = block;
    const closing = this.index.span(closeStart, closeEnd);
    const located = this.parseFrontMatter(this.text.slice(yamlStart, closeStart), yamlStart);
    if (!located) return;
    if (located.value === null || located.value === undefined) {
      located.value = {};
    }
    if (!isPlainObject(located.value)) {
      this.problem(
        this.yaml.nodeSpan(located, located.root) ?? located.anchor,
        'error',
        PROBLEM_CODES.notAMapping,
        'Frontmatter must be a mapping of skill fields (`key: value` lines).',
      );
      return;
    }
    this.entries.add(located, format, { body, bodyAnchor: closing, ordinal: 0, multi: false });
  }

  /**
   * Front matter as YAML; when that fails only because plain `key: value` lines hold text YAML
   * reads as syntax, those values are read as text (`quoteUnparsablePlainValues`), each with a warning.
   */
  private parseFrontMatter(source: string, start: number): Located | undefined {
    // Most real front matter is plain `key: value` lines: read without the YAML parser, same result.
    const plain = readPlainFrontMatter(source);
    if (plain) return { value: plain.value, root: plain.root, base: start, anchor: this.index.lineSpan(1), index: this.index };
    const mark = this.out.mark();
    const located = this.yaml.parseSource(source, start, this.index.lineSpan(1));
    if (located || this.out.errors === mark.errors) return located;
    const tolerant = quoteUnparsablePlainValues(source);
    if (!tolerant) return undefined;
    this.out.rollback(mark);
    const rewritten = `${this.text.slice(0, start)}${tolerant.text}`;
    const reread = new YamlLocator(new LineIndex(rewritten), this.file, this.out).parseSource(tolerant.text, start, this.index.lineSpan(1));
    const firstLine = this.index.position(start).line;
    for (const { key, line } of tolerant.quoted) {
      this.problem(this.index.lineSpan(firstLine + line), 'warning', PROBLEM_CODES.parseError, quotedValueMessage(key), { data: { key } });
    }
    return reread;
  }

  private parseYaml(): void {
    let docs: YAML.Document.Parsed[];
    try {
      docs = YAML.parseAllDocuments(this.text, { prettyErrors: false, uniqueKeys: false, logLevel: 'error' }) as YAML.Document.Parsed[];
    } catch (error) {
      this.problem(FILE_START, 'error', PROBLEM_CODES.parseError, `YAML could not be read: ${messageOf(error)}`);
      return;
    }
    if (!Array.isArray(docs)) docs = [docs];
    const entries: Array<{ located: Located; node: AnyNode }> = [];
    const errorsBefore = this.out.errors;
    for (const doc of docs) {
      const located = this.yaml.fromDocument(doc, 0, FILE_START);
      if (!located) continue;
      this.yaml.collectEntries(located, entries);
    }
    if (entries.length === 0 && this.out.errors === errorsBefore) this.reportNoSkills();
    this.addEntries(entries, 'yaml');
  }

  /** A file that parses but defines nothing (`~`, `null`, `[]`, only comments): say so. */
  private reportNoSkills(): void {
    this.problem(
      FILE_START,
      'info',
      PROBLEM_CODES.noSkills,
      'This file defines no skill (it is empty, `null`, an empty list or only comments). Add a mapping with `trigger` and `steps`, or delete the file.',
    );
  }

  private parseJson(): void {
    const text = this.text.charCodeAt(0) === 0xfeff ? ` ${this.text.slice(1)}` : this.text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const offset = jsonErrorOffset(error, text);
      this.problem(this.index.span(offset, offset + 1), 'error', PROBLEM_CODES.parseError, `Invalid JSON: ${cleanJsonMessage(error)}`);
      return;
    }
    // The YAML pass gives exact positions and finds repeated keys, but costs seconds on a huge
    // document; past JSON_POSITION_LIMIT values the plain JSON value is used instead.
    let located: Located | undefined;
    if (countValues(value, JSON_POSITION_LIMIT) > JSON_POSITION_LIMIT) {
      const unstorable = unstorableValue(value);
      if (unstorable) {
        this.problem(FILE_START, 'error', PROBLEM_CODES.parseError, `This document cannot be loaded: ${unstorable}.`);
        return;
      }
      this.problem(
        FILE_START,
        'info',
        PROBLEM_CODES.positionsSkipped,
        `This JSON file holds more than ${JSON_POSITION_LIMIT} values: its problems point at the start of the file, and a repeated key is not reported (the last one wins).`,
      );
      located = { value, root: undefined, base: 0, anchor: FILE_START, index: this.index };
    } else {
      located = this.yaml.parseSource(text, 0, FILE_START);
    }
    if (!located) return;
    const entries: Array<{ located: Located; node: AnyNode }> = [];
    const errorsBefore = this.out.errors;
    this.yaml.collectEntries(located, entries);
    if (entries.length === 0 && this.out.errors === errorsBefore) this.reportNoSkills();
    this.addEntries(entries, 'json');
  }

  private parseJsonl(): void {
    const text = this.text;
    let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    let lineNo = 1;
    const skillsBefore = this.entries.skills.length;
    let definitions = 0;
    while (start <= text.length) {
      const end = lineEnd(text, start);
      const line = text.slice(start, end);
      if (this.out.spent(`line ${lineNo}`)) return;
      if (line.trim().length > 0) {
        definitions++;
        const currentLine = lineNo;
        try {
          const value: unknown = JSON.parse(line);
          if (!isPlainObject(value)) {
            this.problem(
              () => this.index.lineSpan(currentLine),
              'error',
              PROBLEM_CODES.notAMapping,
              `Line ${lineNo}: each line must be one JSON object (a skill).`,
            );
          } else if (!this.tryFastSkill(value, lineNo)) {
            // Slow path only for lines with problems that will be listed: YAML nodes give exact columns.
            const located = this.yaml.parseSource(line, start, this.index.lineSpan(lineNo));
            if (located && isPlainObject(located.value)) this.entries.add(located, 'jsonl', { ordinal: lineNo - 1, multi: true });
          }
        } catch (error) {
          const offset = start + Math.min(jsonErrorOffset(error, line), line.length);
          this.problem(
            () => this.index.span(offset, Math.max(offset + 1, end)),
            'error',
            PROBLEM_CODES.parseError,
            () => `Line ${currentLine}: invalid JSON: ${cleanJsonMessage(error)}`,
          );
        }
      }
      if (end >= text.length) break;
      start = end + 1;
      lineNo++;
    }
    if (definitions === 0 && this.entries.skills.length === skillsBefore) this.reportNoSkills();
  }

  private fastLocated(value: Record<string, unknown>, lineNo: number): Located {
    return { value, root: undefined, base: 0, anchor: this.index.lineSpan(lineNo), index: this.index };
  }

  /** JSONL fast path: a clean line becomes a skill without building YAML nodes. */
  private tryFastSkill(value: Record<string, unknown>, lineNo: number): boolean {
    const before = this.out.mark();
    const skillCount = this.entries.skills.length;
    this.entries.add(this.fastLocated(value, lineNo), 'jsonl', { ordinal: lineNo - 1, multi: true });
    // Past the problem cap positions are never shown: the fast result stands.
    const listWasFull = this.out.full && this.out.list.length === before.listed;
    if (this.out.total === before.total || listWasFull || this.entries.expanded.exceeded) return true;
    this.out.rollback(before);
    this.entries.dropFrom(skillCount);
    return false;
  }

  private addEntries(entries: Array<{ located: Located; node: AnyNode }>, format: DocumentFormat): void {
    const multi = entries.length > 1;
    for (let ordinal = 0; ordinal < entries.length; ordinal++) {
      if (this.out.spent(`entry ${ordinal + 1} of ${entries.length}`)) return;
      this.entries.add((entries[ordinal] as { located: Located }).located, format, { ordinal, multi });
    }
  }
}
