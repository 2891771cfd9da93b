import * as YAML from 'yaml';
import type { z } from 'zod';
import { LineIndex } from './lineIndex';
import { agentSkillFrontmatterSchema, KNOWN_SKILL_KEYS, normalizeAgentSkillName, skillFileSchema } from '../../skillSchema';
import { repairDescriptiveFields } from './descriptiveFields';
import { loadedNameProblem, skillMdName } from './skillMdName';
import { frontMatterBlock, quotedValueMessage, quoteUnparsablePlainValues } from './frontMatter';
import { BoundedProblems } from './boundedProblems';
import type { SpanSource } from './boundedProblems';
import { FILE_START, PROBLEM_CODES } from './skillProblems';
import type { ProblemCode, ProblemSeverity, SkillProblem, Span } from './skillProblems';
import { EMPTY_KEY_MESSAGE } from './yamlLeniency';
import { unstorableValue } from './yamlStructure';
import { DEFAULT_MAX_EXPANDED_FILE_CHARS, DEFAULT_MAX_SKILL_CHARS, ExpandedSizeBudget } from './expandedSizeBudget';
import { YamlLocator, type AnyNode, type Located } from './yamlLocated';
import { baseName, detectSkillFormat, generatedName, SKILL_FILE_FORMATS_TEXT } from './skillFileNames';
import { closestKnownKey } from './keySuggestion';
import { schemaIssueProblem } from './schemaIssues';
import { skillFromFields, stringList } from './parsedSkill';
import { wholeFileRefusal } from './wholeFileRefusal';
import type { DocumentFormat, ParsedSkill } from './parsedSkill';
import { cleanJsonMessage, countValues, isPlainObject, jsonErrorOffset, lineEnd, messageOf, parentFolderName } from './documentValues';

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
    ctx.skills.length = 0;
  }
  // One skill past the bound after alias expansion: nothing from this file loads.
  if (ctx.expanded.exceeded) ctx.skills.length = 0;
  ctx.out.close();
  return { format, skills: ctx.skills, problems: ctx.out.list };
}

class ParseContext {
  readonly skills: ParsedSkill[] = [];
  readonly out: BoundedProblems;
  readonly expanded: ExpandedSizeBudget;
  private readonly skillNames = new Map<string, ParsedSkill>();
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
    this.expanded = new ExpandedSizeBudget(options.maxSkillChars ?? DEFAULT_MAX_SKILL_CHARS, options.maxExpandedFileChars ?? DEFAULT_MAX_EXPANDED_FILE_CHARS);
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
    this.addSkill(located, format, { body, bodyAnchor: closing, ordinal: 0, multi: false });
  }

  /**
   * Front matter as YAML; when that fails only because plain `key: value` lines hold text YAML
   * reads as syntax, those values are read as text (`quoteUnparsablePlainValues`), each with a warning.
   */
  private parseFrontMatter(source: string, start: number): Located | undefined {
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
            this.problem(
              () => this.index.lineSpan(currentLine),
              'error',
              PROBLEM_CODES.notAMapping,
              `Line ${lineNo}: each line must be one JSON object (a skill).`,
            );
          } else if (!this.tryFastSkill(value, lineNo)) {
            // Slow path only for lines with problems that will be listed: YAML nodes give exact columns.
            const located = this.yaml.parseSource(line, start, this.index.lineSpan(lineNo));
            if (located && isPlainObject(located.value)) this.addSkill(located, 'jsonl', { ordinal: lineNo - 1, multi: true });
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
    if (this.out.total === before.total || listWasFull || this.expanded.exceeded) return true;
    this.out.rollback(before);
    for (const skill of this.skills.splice(skillCount)) this.skillNames.delete(skill.name);
    return false;
  }

  private addEntries(entries: Array<{ located: Located; node: AnyNode }>, format: DocumentFormat): void {
    const multi = entries.length > 1;
    for (let ordinal = 0; ordinal < entries.length; ordinal++) {
      if (this.out.spent(`entry ${ordinal + 1} of ${entries.length}`)) return;
      this.addSkill((entries[ordinal] as { located: Located }).located, format, { ordinal, multi });
    }
  }

  // ── validation + normalisation ──────────────────────────────────────────

  private addSkill(located: Located, format: DocumentFormat, info: { body?: string; bodyAnchor?: Span; ordinal: number; multi: boolean }): void {
    const written = located.value as Record<string, unknown>;
    if (this.expanded.exceeded || this.exceedsExpandedBound(located, written, info)) return;
    const problemsBefore = this.out.list.length;
    const errorsBefore = this.out.errors;
    const schema = format === 'skill-md' ? agentSkillFrontmatterSchema : skillFileSchema;
    const { fields, repairs } = repairDescriptiveFields(written, (key) => this.yaml.sourceOf(located, [key]));
    const named = format === 'skill-md' ? skillMdName(fields.name, this.file) : undefined;
    const raw = named?.name !== undefined && named.name !== fields.name ? { ...fields, name: named.name } : fields;
    const declaredName = typeof raw.name === 'string' ? raw.name : undefined;
    for (const repair of repairs) {
      this.problem(() => this.yaml.spanOfPath(located, repair.path), 'warning', PROBLEM_CODES.wrongType, repair.message, {
        skillName: declaredName,
        data: { key: String(repair.path[0]) },
      });
    }
    const renamed = named?.name !== undefined ? loadedNameProblem(named.name, fields.name, named.how) : undefined;
    if (renamed) {
      const at = fields.name === undefined ? located.anchor : () => this.yaml.spanOfPath(located, ['name']);
      this.problem(at, 'warning', renamed.code, renamed.message, { skillName: declaredName, data: { key: 'name', expected: declaredName } });
    }
    const result = (schema as z.ZodType).safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) this.reportIssue(located, format, issue, raw, declaredName);
    }

    // Unknown keys: kept in `extra`, reported as warnings with a suggestion.
    const extra: Record<string, unknown> = {};
    for (const key of Object.keys(raw)) {
      if (KNOWN_SKILL_KEYS.includes(key)) continue;
      extra[key] = raw[key];
      if (key === '') {
        this.problem(() => this.yaml.spanOfPath(located, [key], 'key'), 'warning', PROBLEM_CODES.unknownField, EMPTY_KEY_MESSAGE);
        continue;
      }
      const suggestion = () => closestKnownKey(key);
      this.problem(
        () => this.yaml.spanOfPath(located, [key], 'key'),
        'warning',
        PROBLEM_CODES.unknownField,
        () => `Unknown field \`${key}\`${suggestion() ? ` (did you mean \`${suggestion()}\`?)` : ''}; it is kept as extra metadata.`,
        () => ({ skillName: declaredName, data: { key, suggestion: suggestion() } }),
      );
    }

    const str = (key: string): string => (typeof raw[key] === 'string' ? (raw[key] as string).trim() : '');
    const triggers = typeof raw.triggers === 'string' ? [raw.triggers.trim()].filter(Boolean) : stringList(raw.triggers);
    const body = (info.body ?? '').length > 0 ? (info.body ?? '') : typeof raw.body === 'string' ? raw.body.trim() : '';

    const trigger = str('trigger') || str('description') || triggers.join(', ');
    if (!trigger && !this.hasIssueAt(problemsBefore, ['trigger', 'description'])) {
      const span = 'trigger' in raw ? this.yaml.spanOfPath(located, ['trigger']) : located.anchor;
      this.problem(span, 'error', PROBLEM_CODES.missingTrigger, 'Missing trigger: add `trigger:` (when to use this skill, one sentence) or a `description`.', {
        skillName: declaredName,
      });
    }

    if (format === 'skill-md') {
      if (!body) {
        this.problem(
          info.bodyAnchor ?? located.anchor,
          'error',
          PROBLEM_CODES.missingBody,
          'SKILL.md needs instructions: write them in markdown after the closing `---`.',
          { skillName: declaredName },
        );
      }
      const folder = parentFolderName(this.file);
      // A normalized name is compared with the folder's name normalized the same way; a name
      // taken from the folder matches it by definition.
      const differs =
        named?.how === 'as-written' ? declaredName !== folder : named?.how === 'normalized' && declaredName !== normalizeAgentSkillName(folder ?? '');
      if (declaredName && folder && differs && !this.hasIssueAt(problemsBefore, ['name'])) {
        this.problem(
          this.yaml.spanOfPath(located, ['name']),
          'warning',
          PROBLEM_CODES.nameMismatchFolder,
          `Name \`${declaredName}\` differs from the folder name \`${folder}\` (agentskills.io wants them equal); the skill loads as \`${declaredName}\`. Rename the folder or the skill.`,
          { skillName: declaredName, data: { expected: normalizeAgentSkillName(folder), actual: declaredName } },
        );
      }
    }

    if (this.out.errors > errorsBefore) return;

    const nameGenerated = !declaredName;
    const nameWritten = 'name' in written;
    const name =
      declaredName ??
      generatedName(this.options.packName ?? 'local', this.options.relativePath ?? baseName(this.file), info.multi ? info.ordinal + 1 : undefined);
    const previous = this.skillNames.get(name);
    const span = located.anchor;
    if (previous) {
      this.problem(
        nameWritten ? this.yaml.spanOfPath(located, ['name']) : span,
        'error',
        PROBLEM_CODES.duplicateName,
        `Duplicate skill name \`${name}\`: already defined at ${this.file}:${previous.span.line}. Names must be unique.`,
        { skillName: name, data: { otherFile: this.file, otherLine: previous.span.line } },
      );
      return;
    }

    const skill = skillFromFields(raw, {
      name,
      nameGenerated,
      trigger,
      triggers,
      body,
      extra,
      format,
      span,
      nameSpan: declaredName && nameWritten ? this.yaml.spanOfPath(located, ['name']) : undefined,
    });
    this.skills.push(skill);
    this.skillNames.set(name, skill);
  }

  /** Reports (once) a skill at which the skill or the file passes its bound after alias expansion. */
  private exceedsExpandedBound(located: Located, raw: Record<string, unknown>, info: { body?: string; bodyAnchor?: Span }): boolean {
    const over = this.expanded.add([...Object.entries(raw), ['body', info.body ?? '']]);
    if (!over) return false;
    const span = over.key === 'body' && !('body' in raw) ? (info.bodyAnchor ?? located.anchor) : this.yaml.spanOfPath(located, [over.key], 'key');
    this.problem(span, 'error', PROBLEM_CODES.expandedTooLarge, over.message, {
      skillName: typeof raw.name === 'string' ? raw.name : undefined,
      data: { key: over.key, limit: over.limit },
    });
    return true;
  }

  private hasIssueAt(from: number, keys: string[]): boolean {
    return this.out.list.slice(from).some((p) => p.severity === 'error' && keys.some((k) => p.message.startsWith(`\`${k}\``)));
  }

  private reportIssue(located: Located, format: DocumentFormat, issue: z.core.$ZodIssue, raw: Record<string, unknown>, skillName: string | undefined): void {
    const problem = schemaIssueProblem(issue, raw, format === 'skill-md', this.file);
    const span = problem.missing ? located.anchor : () => this.yaml.spanOfPath(located, problem.path);
    this.problem(span, problem.severity, problem.code, problem.message, { skillName, data: { key: problem.key } });
  }
}
