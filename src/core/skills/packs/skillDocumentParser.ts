import * as YAML from 'yaml';
import type { z } from 'zod';
import type { TaskType } from '../../config/settingsSchema';
import { LineIndex } from './lineIndex';
import { midLineCommentProblems } from './yamlMidLineComment';
import { agentSkillFrontmatterSchema, KNOWN_SKILL_KEYS, skillFileSchema } from '../skillSchema';
import type { SkillFormat } from '../skillSchema';
import { BoundedProblems } from './boundedProblems';
import type { SpanSource } from './boundedProblems';
import { FILE_START, PROBLEM_CODES } from './skillProblems';
import type { ProblemCode, ProblemSeverity, SkillProblem, Span } from './skillProblems';
import { duplicateKeyNodes, PairLookup, unstorableValue } from './yamlStructure';
import {
  cleanJsonMessage, countValues, describeExpected, firstHeading, firstLine, humanize, isPlainObject, jsonErrorOffset, lineEnd,
  messageOf, nextLine, normalizeTools, parentFolderName, startOf,
} from './documentValues';

/**
 * Parses ONE skill document (any format) into normalised skill content plus problems with exact
 * positions. Pure and synchronous: the editor calls it on every keystroke, the pack loader for
 * every file. It never throws; any failure becomes a problem. A skill with an error is not
 * returned (it is "skipped"); warnings leave it in.
 *
 * Work per file is bounded so one hostile file cannot stall the host: at most `maxProblems`
 * problems are reported (positions are computed only for those; the rest are counted in one
 * closing warning), and parsing stops with an error once `budgetMs` has passed.
 */

export type DocumentFormat = Exclude<SkillFormat, 'learned'>;

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
}

/** A skill's content as read from a file, before it gets store identity and stats. */
export interface ParsedSkill {
  name: string;
  nameGenerated: boolean;
  title: string;
  description: string;
  trigger: string;
  task_type: TaskType;
  tags: string[];
  steps: string[];
  preconditions: string[];
  failure_modes: string[];
  body: string;
  domain: string;
  frames: string[];
  triggers: string[];
  tools: Array<{ tool: string; note?: string }>;
  allowed_tools: string[];
  requires: string[];
  meta: Record<string, unknown>;
  extra: Record<string, unknown>;
  format: DocumentFormat;
  model_invocable: boolean;
  /** Where the definition starts (1-based) and the span of its `name` value, if written. */
  span: Span;
  nameSpan?: Span;
}

export interface ParseResult {
  format: DocumentFormat | undefined;
  skills: ParsedSkill[];
  problems: SkillProblem[];
}

export const DEFAULT_MAX_CHARS = 1024 * 1024;
export const DEFAULT_MAX_PROBLEMS = 200;
export const DEFAULT_PARSE_BUDGET_MS = 5000;
export const DEFAULT_MAX_ERRORS = 1000;
/** JSON documents with more values than this skip the (slow) YAML pass for exact positions. */
const JSON_POSITION_LIMIT = 5000;
/**
 * Fields whose length limit is advice, not validity (agentskills.io and our own): a longer value
 * loads with a warning and is shortened when rendered. VS Code and Claude load such skills too.
 */
const SOFT_LENGTH_KEYS = new Set(['description', 'title', 'trigger', 'compatibility']);
/** SKILL.md names over agentskills' 64 characters still fit the store's 128-character names. */
const SOFT_NAME_LENGTH = 128;

/** `*.skill.md|yaml|yml|json|jsonl` or `SKILL.md`; undefined for anything else. */
export function detectSkillFormat(fileName: string): DocumentFormat | undefined {
  const base = baseName(fileName);
  if (base === 'SKILL.md') return 'skill-md';
  const lower = base.toLowerCase();
  if (lower.endsWith('.skill.md')) return 'md';
  if (lower.endsWith('.skill.yaml') || lower.endsWith('.skill.yml')) return 'yaml';
  if (lower.endsWith('.skill.json')) return 'json';
  if (lower.endsWith('.skill.jsonl')) return 'jsonl';
  return undefined;
}

export function parseSkillDocument(text: string, fileName: string, options: ParseOptions = {}): ParseResult {
  const format = options.format ?? detectSkillFormat(fileName);
  const ctx = new ParseContext(text, fileName, options, format);
  try {
    ctx.run();
  } catch (error) {
    // Defensive: nothing above should throw, but a bug must not take the editor down.
    ctx.out.add(FILE_START, 'error', PROBLEM_CODES.parseError, `Could not parse this file: ${error instanceof Error ? error.message : String(error)}`);
    ctx.skills.length = 0;
  }
  ctx.out.close();
  return { format, skills: ctx.skills, problems: ctx.out.list };
}

type AnyNode = YAML.Node | null | undefined;

/** A parsed mapping with a way to locate its keys and values in the file. */
interface Located {
  value: unknown;
  root: AnyNode;
  /** Offset of `root` source text within the file. */
  base: number;
  /** Where to point problems about missing keys. */
  anchor: Span;
  index: LineIndex;
}

class ParseContext {
  readonly skills: ParsedSkill[] = [];
  readonly out: BoundedProblems;
  private readonly skillNames = new Map<string, ParsedSkill>();
  private readonly pairs = new PairLookup();
  private readonly index: LineIndex;

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
  }

  run(): void {
    const limit = this.options.maxChars ?? DEFAULT_MAX_CHARS;
    if (this.text.length > limit) {
      this.problem(FILE_START, 'error', PROBLEM_CODES.fileTooLarge,
        `File is too large (${this.text.length} characters; the limit is ${limit}). Split it into smaller skill files.`);
      return;
    }
    const nul = this.text.indexOf('\u0000');
    if (nul >= 0) {
      this.problem(this.index.span(nul, nul + 1), 'error', PROBLEM_CODES.binaryFile, 'File contains NUL bytes; it looks binary, not a skill file.');
      return;
    }
    if (this.text.trim().length === 0) {
      this.problem(FILE_START, 'error', PROBLEM_CODES.emptyFile, 'File is empty. A skill needs at least a trigger and steps (or, for SKILL.md, a name, description and body).');
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
        this.problem(FILE_START, 'error', PROBLEM_CODES.invalidValue,
          'Unknown skill file type: use *.skill.md, *.skill.yaml, *.skill.yml, *.skill.json, *.skill.jsonl or <name>/SKILL.md.');
    }
  }

  private problem(span: SpanSource, severity: ProblemSeverity, code: ProblemCode, message: string | (() => string), extra: { skillName?: string; data?: Record<string, unknown> } | (() => { skillName?: string; data?: Record<string, unknown> }) = {}): void {
    this.out.add(span, severity, code, message, extra);
  }

  // ── formats ──────────────────────────────────────────────────────────────

  private parseMarkdown(format: 'md' | 'skill-md'): void {
    const text = this.text;
    const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const firstLineEnd = lineEnd(text, bom);
    if (text.slice(bom, firstLineEnd).trimEnd() !== '---') {
      this.problem(this.index.lineSpan(1), 'error', PROBLEM_CODES.missingFrontmatter,
        'Missing YAML frontmatter: the file must start with a line `---`, the skill fields, and a closing `---`.');
      return;
    }
    const yamlStart = nextLine(text, firstLineEnd);
    let cursor = yamlStart;
    let closeStart = -1;
    let closeEnd = -1;
    while (cursor < text.length) {
      const end = lineEnd(text, cursor);
      const line = text.slice(cursor, end).trimEnd();
      if (line === '---' || line === '...') {
        closeStart = cursor;
        closeEnd = end;
        break;
      }
      cursor = nextLine(text, end);
    }
    if (closeStart < 0) {
      this.problem(this.index.lineSpan(1), 'error', PROBLEM_CODES.unterminatedFrontmatter,
        'Frontmatter is not closed: add a line `---` after the skill fields.');
      return;
    }
    const body = text.slice(nextLine(text, closeEnd)).trim();
    const closing = this.index.span(closeStart, closeEnd);
    const located = this.parseYamlSource(text.slice(yamlStart, closeStart), yamlStart, this.index.lineSpan(1));
    if (!located) return;
    if (located.value === null || located.value === undefined) {
      located.value = {};
    }
    if (!isPlainObject(located.value)) {
      this.problem(this.nodeSpan(located, located.root) ?? located.anchor, 'error', PROBLEM_CODES.notAMapping, 'Frontmatter must be a mapping of skill fields (`key: value` lines).');
      return;
    }
    this.addSkill(located, format, { body, bodyAnchor: closing, ordinal: 0, multi: false });
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
      const located = this.fromDocument(doc, 0, FILE_START);
      if (!located) continue;
      this.collectEntries(located, entries);
    }
    if (entries.length === 0 && this.out.errors === errorsBefore) this.reportNoSkills();
    this.addEntries(entries, 'yaml');
  }

  /** A file that parses but defines nothing (`~`, `null`, `[]`, only comments): say so. */
  private reportNoSkills(): void {
    this.problem(FILE_START, 'info', PROBLEM_CODES.noSkills,
      'This file defines no skill (it is empty, `null`, an empty list or only comments). Add a mapping with `trigger` and `steps`, or delete the file.');
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
      this.problem(FILE_START, 'info', PROBLEM_CODES.positionsSkipped,
        `This JSON file holds more than ${JSON_POSITION_LIMIT} values: its problems point at the start of the file, and a repeated key is not reported (the last one wins).`);
      located = { value, root: undefined, base: 0, anchor: FILE_START, index: this.index };
    } else {
      located = this.parseYamlSource(text, 0, FILE_START);
    }
    if (!located) return;
    const entries: Array<{ located: Located; node: AnyNode }> = [];
    const errorsBefore = this.out.errors;
    this.collectEntries(located, entries);
    if (entries.length === 0 && this.out.errors === errorsBefore) this.reportNoSkills();
    this.addEntries(entries, 'json');
  }

  private parseJsonl(): void {
    const text = this.text;
    let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    let lineNo = 1;
    const skillsBefore = this.skills.length;
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
            this.problem(() => this.index.lineSpan(currentLine), 'error', PROBLEM_CODES.notAMapping, `Line ${lineNo}: each line must be one JSON object (a skill).`);
          } else if (!this.tryFastSkill(value, lineNo)) {
            // Slow path only for lines with problems that will be listed: YAML nodes give exact columns.
            const located = this.parseYamlSource(line, start, this.index.lineSpan(lineNo));
            if (located && isPlainObject(located.value)) this.addSkill(located, 'jsonl', { ordinal: lineNo - 1, multi: true });
          }
        } catch (error) {
          const offset = start + Math.min(jsonErrorOffset(error, line), line.length);
          this.problem(() => this.index.span(offset, Math.max(offset + 1, end)), 'error', PROBLEM_CODES.parseError, () => `Line ${currentLine}: invalid JSON: ${cleanJsonMessage(error)}`);
        }
      }
      if (end >= text.length) break;
      start = end + 1;
      lineNo++;
    }
    if (definitions === 0 && this.skills.length === skillsBefore) this.reportNoSkills();
  }

  private fastLocated(value: Record<string, unknown>, lineNo: number): Located {
    return { value, root: undefined, base: 0, anchor: this.index.lineSpan(lineNo), index: this.index };
  }

  /** JSONL fast path: a clean line becomes a skill without building YAML nodes. */
  private tryFastSkill(value: Record<string, unknown>, lineNo: number): boolean {
    const before = this.out.mark();
    const skillCount = this.skills.length;
    this.addSkill(this.fastLocated(value, lineNo), 'jsonl', { ordinal: lineNo - 1, multi: true });
    // Past the problem cap positions are never shown: the fast result stands.
    const listWasFull = this.out.full && this.out.list.length === before.listed;
    if (this.out.total === before.total || listWasFull) return true;
    this.out.rollback(before);
    for (const skill of this.skills.splice(skillCount)) this.skillNames.delete(skill.name);
    return false;
  }

  // ── YAML plumbing ────────────────────────────────────────────────────────

  private parseYamlSource(source: string, base: number, anchor: Span): Located | undefined {
    let doc: YAML.Document.Parsed;
    try {
      doc = YAML.parseDocument(source, { prettyErrors: false, uniqueKeys: false, logLevel: 'error' });
    } catch (error) {
      this.problem(anchor, 'error', PROBLEM_CODES.parseError, `YAML could not be read: ${messageOf(error)}`);
      return undefined;
    }
    return this.fromDocument(doc, base, anchor);
  }

  private fromDocument(doc: YAML.Document.Parsed, base: number, anchor: Span): Located | undefined {
    if (doc.errors.length > 0) {
      for (const error of doc.errors.slice(0, 20)) {
        const [from, to] = error.pos;
        this.problem(() => this.index.span(base + from, base + Math.max(to, from + 1)), 'error', PROBLEM_CODES.parseError, `Syntax error: ${firstLine(error.message)}`);
      }
      return undefined;
    }
    // Our own duplicate-key check: linear, unlike the parser's `uniqueKeys` (see yamlStructure).
    const duplicates = duplicateKeyNodes(doc);
    if (duplicates.length > 0) {
      for (const key of duplicates) {
        const range = key.range ?? [0, 1];
        this.problem(() => this.index.span(base + range[0], base + Math.max(range[1], range[0] + 1)), 'error', PROBLEM_CODES.duplicateKey, 'Duplicate key: each field may appear once.');
      }
      return undefined;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 50 });
    } catch (error) {
      this.problem(anchor, 'error', PROBLEM_CODES.parseError, `YAML could not be read: ${messageOf(error)}`);
      return undefined;
    }
    const unstorable = unstorableValue(value);
    if (unstorable) {
      this.problem(anchor, 'error', PROBLEM_CODES.parseError, `This document cannot be loaded: ${unstorable}. Replace the alias with the value itself.`);
      return undefined;
    }
    for (const problem of midLineCommentProblems(doc, base, this.index, this.file)) this.out.addBuilt(problem);
    return { value, root: doc.contents as AnyNode, base, anchor, index: this.index };
  }

  private collectEntries(located: Located, into: Array<{ located: Located; node: AnyNode }>): void {
    if (located.value === null || located.value === undefined) return;
    if (Array.isArray(located.value) && (YAML.isSeq(located.root) || located.root === undefined)) {
      const items = YAML.isSeq(located.root) ? located.root.items : [];
      located.value.forEach((item, i) => {
        const node = items[i] as AnyNode;
        const span = this.nodeSpan(located, node) ?? located.anchor;
        if (!isPlainObject(item)) {
          this.problem(span, 'error', PROBLEM_CODES.notAMapping, `Entry ${i + 1} must be a mapping of skill fields.`);
          return;
        }
        into.push({ located: { ...located, value: item, root: node, anchor: startOf(span) }, node });
      });
      return;
    }
    if (!isPlainObject(located.value)) {
      this.problem(this.nodeSpan(located, located.root) ?? located.anchor, 'error', PROBLEM_CODES.notAMapping,
        'A skill file holds a mapping of skill fields (or a list of them).');
      return;
    }
    const span = this.nodeSpan(located, located.root);
    into.push({ located: { ...located, anchor: span ? startOf(span) : located.anchor }, node: located.root });
  }

  private addEntries(entries: Array<{ located: Located; node: AnyNode }>, format: DocumentFormat): void {
    const multi = entries.length > 1;
    for (let ordinal = 0; ordinal < entries.length; ordinal++) {
      if (this.out.spent(`entry ${ordinal + 1} of ${entries.length}`)) return;
      this.addSkill((entries[ordinal] as { located: Located }).located, format, { ordinal, multi });
    }
  }

  private nodeSpan(located: Located, node: AnyNode): Span | undefined {
    const range = node?.range;
    if (!range) return undefined;
    return this.index.span(located.base + range[0], located.base + range[1]);
  }

  /** The pair (key node, value node) of a path inside `root`. */
  private locate(located: Located, path: readonly PropertyKey[]): { key?: AnyNode; value?: AnyNode; parentKey?: AnyNode } {
    let node: AnyNode = located.root;
    let key: AnyNode;
    let parentKey: AnyNode;
    for (const segment of path) {
      if (YAML.isMap(node)) {
        const pair = this.pairs.pair(node, String(segment));
        if (!pair) return { parentKey: key };
        parentKey = key;
        key = pair.key as AnyNode;
        node = pair.value as AnyNode;
      } else if (YAML.isSeq(node) && typeof segment === 'number') {
        parentKey = key;
        node = node.items[segment] as AnyNode;
        key = undefined;
        if (!node) return { parentKey };
      } else {
        return { parentKey: key };
      }
    }
    return { key, value: node, parentKey };
  }

  private spanOfPath(located: Located, path: readonly PropertyKey[], prefer: 'key' | 'value' = 'value'): Span {
    const found = this.locate(located, path);
    const node = prefer === 'key' ? found.key ?? found.value : found.value ?? found.key;
    return this.nodeSpan(located, node) ?? this.nodeSpan(located, found.parentKey) ?? located.anchor;
  }

  // ── validation + normalisation ──────────────────────────────────────────

  private addSkill(located: Located, format: DocumentFormat, info: { body?: string; bodyAnchor?: Span; ordinal: number; multi: boolean }): void {
    const raw = located.value as Record<string, unknown>;
    const problemsBefore = this.out.list.length;
    const errorsBefore = this.out.errors;
    const schema = format === 'skill-md' ? agentSkillFrontmatterSchema : skillFileSchema;
    const declaredName = typeof raw.name === 'string' ? raw.name : undefined;
    const result = (schema as z.ZodType).safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) this.reportIssue(located, format, issue, raw, declaredName);
    }

    // Unknown keys: kept in `extra`, reported as warnings with a suggestion.
    const extra: Record<string, unknown> = {};
    for (const key of Object.keys(raw)) {
      if (KNOWN_SKILL_KEYS.includes(key)) continue;
      extra[key] = raw[key];
      const suggestion = () => closestKey(key);
      this.problem(() => this.spanOfPath(located, [key], 'key'), 'warning', PROBLEM_CODES.unknownField,
        () => `Unknown field \`${key}\`${suggestion() ? ` (did you mean \`${suggestion()}\`?)` : ''}; it is kept as extra metadata.`,
        () => ({ skillName: declaredName, data: { key, suggestion: suggestion() } }));
    }

    const str = (key: string): string => (typeof raw[key] === 'string' ? (raw[key] as string).trim() : '');
    const list = (key: string): string[] => (Array.isArray(raw[key]) ? (raw[key] as unknown[]).filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean) : []);
    const triggers = typeof raw.triggers === 'string' ? [raw.triggers.trim()].filter(Boolean) : list('triggers');
    const body = (info.body ?? '').length > 0 ? info.body ?? '' : typeof raw.body === 'string' ? raw.body.trim() : '';

    const trigger = str('trigger') || str('description') || triggers.join(', ');
    if (!trigger && !this.hasIssueAt(problemsBefore, ['trigger', 'description'])) {
      const span = 'trigger' in raw ? this.spanOfPath(located, ['trigger']) : located.anchor;
      this.problem(span, 'error', PROBLEM_CODES.missingTrigger,
        'Missing trigger: add `trigger:` (when to use this skill, one sentence) or a `description`.', { skillName: declaredName });
    }

    if (format === 'skill-md') {
      if (!body) {
        this.problem(info.bodyAnchor ?? located.anchor, 'error', PROBLEM_CODES.missingBody,
          'SKILL.md needs instructions: write them in markdown after the closing `---`.', { skillName: declaredName });
      }
      const folder = parentFolderName(this.file);
      if (declaredName && folder && declaredName !== folder && !this.hasIssueAt(problemsBefore, ['name'])) {
        this.problem(this.spanOfPath(located, ['name']), 'error', PROBLEM_CODES.nameMismatchFolder,
          `Name \`${declaredName}\` must equal the folder name \`${folder}\` (agentskills.io rule). Rename the folder or the skill.`,
          { skillName: declaredName, data: { expected: folder, actual: declaredName } });
      }
    }

    if (this.out.errors > errorsBefore) return;

    const nameGenerated = !declaredName;
    const name = declaredName ?? generatedName(this.options.packName ?? 'local', this.options.relativePath ?? baseName(this.file), info.multi ? info.ordinal + 1 : undefined);
    const previous = this.skillNames.get(name);
    const span = located.anchor;
    if (previous) {
      this.problem(declaredName ? this.spanOfPath(located, ['name']) : span, 'error', PROBLEM_CODES.duplicateName,
        `Duplicate skill name \`${name}\`: already defined at ${this.file}:${previous.span.line}. Names must be unique.`,
        { skillName: name, data: { otherFile: this.file, otherLine: previous.span.line } });
      return;
    }

    const meta: Record<string, unknown> = {};
    for (const key of ['license', 'compatibility', 'metadata', 'argument-hint', 'user-invokable', 'user-invocable', 'disable-model-invocation', 'cluster', 'scripts']) {
      if (raw[key] !== undefined) meta[key] = raw[key];
    }
    const title = str('title') || firstHeading(body) || humanize(name);
    const skill: ParsedSkill = {
      name,
      nameGenerated,
      title,
      description: str('description'),
      trigger,
      task_type: (raw.task_type as TaskType | undefined) ?? 'unknown',
      tags: list('tags'),
      steps: list('steps'),
      preconditions: list('preconditions'),
      failure_modes: list('failure_modes'),
      body,
      domain: str('domain'),
      frames: list('frames'),
      triggers,
      tools: normalizeTools(raw.tools),
      allowed_tools: splitAllowedTools(raw['allowed-tools']),
      requires: list('requires'),
      meta,
      extra,
      format,
      model_invocable: raw['disable-model-invocation'] !== true,
      span,
      nameSpan: declaredName ? this.spanOfPath(located, ['name']) : undefined,
    };
    this.skills.push(skill);
    this.skillNames.set(name, skill);
  }

  private hasIssueAt(from: number, keys: string[]): boolean {
    return this.out.list.slice(from).some((p) => p.severity === 'error' && keys.some((k) => p.message.startsWith(`\`${k}\``)));
  }

  private reportIssue(located: Located, format: DocumentFormat, issue: z.core.$ZodIssue, raw: Record<string, unknown>, skillName: string | undefined): void {
    const path = issue.path as PropertyKey[];
    const key = String(path[0] ?? '');
    const missing = path.length === 1 && raw[key] === undefined;
    let code: ProblemCode = PROBLEM_CODES.invalidValue;
    let message = `\`${path.map(String).join('.')}\`: ${issue.message}`;
    if (key === 'steps' && (missing || (issue.code === 'too_small' && path.length === 1))) {
      code = PROBLEM_CODES.missingSteps;
      message = '`steps`: add `steps:` — a non-empty list of strings, one instruction per entry.';
    } else if (missing && key === 'name') {
      code = PROBLEM_CODES.missingName;
      message = `\`name\`: required in SKILL.md${parentFolderName(this.file) ? ` (use the folder name \`${parentFolderName(this.file)}\`)` : ''}.`;
    } else if (key === 'description' && format === 'skill-md' && (missing || issue.code === 'too_small')) {
      code = PROBLEM_CODES.missingDescription;
      message = '`description`: required in SKILL.md — say what the skill does and when to use it (≤ 1024 characters).';
    } else if (issue.code === 'invalid_type' || issue.code === 'invalid_union') {
      code = PROBLEM_CODES.wrongType;
      message = `\`${path.map(String).join('.')}\`: ${describeExpected(key)}`;
    } else if (key === 'name') {
      code = issue.code === 'too_big' ? PROBLEM_CODES.tooLong : PROBLEM_CODES.invalidName;
    } else if (issue.code === 'too_big') {
      code = PROBLEM_CODES.tooLong;
    }
    const span = missing ? located.anchor : () => this.spanOfPath(located, path);
    if (code === PROBLEM_CODES.tooLong && path.length === 1 && this.isSoftLength(key, raw[key])) {
      this.problem(span, 'warning', code, `${message}; the skill loads, and the text is shortened where prompts have a budget.`, { skillName, data: { key } });
      return;
    }
    this.problem(span, 'error', code, message, { skillName, data: { key } });
  }

  /** Over-long text that still loads (SOFT_LENGTH_KEYS; SKILL.md names up to the store's limit). */
  private isSoftLength(key: string, value: unknown): boolean {
    if (SOFT_LENGTH_KEYS.has(key)) return true;
    return key === 'name' && typeof value === 'string' && value.length <= SOFT_NAME_LENGTH;
  }
}

// ── helpers ────────────────────────────────────────────────────────────────

export function baseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] ?? file;
}

/** `git/commit-message.skill.md` → `git.commit-message`. */
export function slugOfPath(relativePath: string): string {
  const withoutExt = relativePath.replace(/\.skill\.(md|ya?ml|jsonl?)$/i, '').replace(/[\\/]SKILL\.md$/, '');
  const slug = withoutExt.split(/[\\/]+/).filter(Boolean)
    .map((part) => part.toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^_+|_+$/g, ''))
    .filter(Boolean).join('.');
  return slug || 'skill';
}

export function generatedName(packName: string, relativePath: string, ordinal?: number): string {
  return `pack.${packName}.${slugOfPath(relativePath)}${ordinal !== undefined ? `.${ordinal}` : ''}`;
}

/** `Bash(git commit:*) Read Write` → ['Bash(git commit:*)', 'Read', 'Write'] (spaces inside parentheses kept). */
export function splitAllowedTools(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean);
  if (typeof value !== 'string') return [];
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if ((ch === ' ' || ch === ',' || ch === '\n' || ch === '\t') && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** The tool name of an allowed-tools entry: `Bash(git:*)` → `Bash`. */
export function toolNameOfAllowed(entry: string): string {
  const paren = entry.indexOf('(');
  return (paren >= 0 ? entry.slice(0, paren) : entry).trim();
}

function closestKey(key: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = key.toLowerCase().replace(/-/g, '_');
  for (const known of KNOWN_SKILL_KEYS) {
    const d = editDistance(lower, known.toLowerCase().replace(/-/g, '_'));
    if (d < bestDistance) {
      bestDistance = d;
      best = known;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(key.length / 3)) ? best : undefined;
}

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const temp = prev[j] ?? 0;
      prev[j] = Math.min((prev[j] ?? 0) + 1, (prev[j - 1] ?? 0) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = temp;
    }
  }
  return prev[b.length] ?? 0;
}
