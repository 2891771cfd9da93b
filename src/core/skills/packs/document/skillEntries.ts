import type { z } from 'zod';
import { agentSkillFrontmatterSchema, KNOWN_SKILL_KEYS, normalizeAgentSkillName, skillFileSchema } from '../../skillSchema';
import { surelyAcceptedSkillMd } from './acceptedFrontMatter';
import type { BoundedProblems } from './boundedProblems';
import { repairDescriptiveFields } from './descriptiveFields';
import { parentFolderName } from './documentValues';
import { DEFAULT_MAX_EXPANDED_FILE_CHARS, DEFAULT_MAX_SKILL_CHARS, ExpandedSizeBudget } from './expandedSizeBudget';
import { closestKnownKey } from './keySuggestion';
import { skillFromFields, stringList } from './parsedSkill';
import type { DocumentFormat, ParsedSkill } from './parsedSkill';
import { schemaIssueProblem } from './schemaIssues';
import { baseName, generatedName } from './skillFileNames';
import { loadedNameProblem, skillMdName } from './skillMdName';
import { PROBLEM_CODES } from './skillProblems';
import type { Span } from './skillProblems';
import { EMPTY_KEY_MESSAGE } from './yamlLeniency';
import type { Located, YamlLocator } from './yamlLocated';

/**
 * The skills of one document, entry by entry: each entry the format's reader found (a front
 * matter, a YAML or JSON mapping, a JSONL line) is validated against the skill schema and
 * normalised into a skill (descriptive fields repaired, names generated or checked against the
 * folder, unknown keys kept as extra metadata, duplicates refused), with its problems at exact
 * positions. An entry with an error adds no skill; warnings leave it in.
 */

/** What naming and the size bounds read of the parse options (`ParseOptions` in skillDocumentParser.ts). */
interface EntryOptions {
  packName?: string;
  relativePath?: string;
  maxSkillChars?: number;
  maxExpandedFileChars?: number;
}

export class SkillEntries {
  readonly skills: ParsedSkill[] = [];
  /** Characters held once YAML aliases are expanded, per skill and for the file. */
  readonly expanded: ExpandedSizeBudget;
  private readonly skillNames = new Map<string, ParsedSkill>();

  constructor(
    private readonly file: string,
    private readonly options: EntryOptions,
    private readonly out: BoundedProblems,
    private readonly yaml: YamlLocator,
  ) {
    this.expanded = new ExpandedSizeBudget(options.maxSkillChars ?? DEFAULT_MAX_SKILL_CHARS, options.maxExpandedFileChars ?? DEFAULT_MAX_EXPANDED_FILE_CHARS);
  }

  /** Takes back the skills added from `count` on (the JSONL fast path retries a line on the slow path). */
  dropFrom(count: number): void {
    for (const skill of this.skills.splice(count)) this.skillNames.delete(skill.name);
  }

  add(located: Located, format: DocumentFormat, info: { body?: string; bodyAnchor?: Span; ordinal: number; multi: boolean }): void {
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
      this.out.add(() => this.yaml.spanOfPath(located, repair.path), 'warning', PROBLEM_CODES.wrongType, repair.message, {
        skillName: declaredName,
        data: { key: String(repair.path[0]) },
      });
    }
    const renamed = named?.name !== undefined ? loadedNameProblem(named.name, fields.name, named.how) : undefined;
    if (renamed) {
      const at = fields.name === undefined ? located.anchor : () => this.yaml.spanOfPath(located, ['name']);
      this.out.add(at, 'warning', renamed.code, renamed.message, { skillName: declaredName, data: { key: 'name', expected: declaredName } });
    }
    // The common SKILL.md shapes are accepted without zod (acceptedFrontMatter.ts); the rest asks the schema.
    const result = format === 'skill-md' && surelyAcceptedSkillMd(raw) ? undefined : (schema as z.ZodType).safeParse(raw);
    if (result && !result.success) {
      for (const issue of result.error.issues) this.reportIssue(located, format, issue, raw, declaredName);
    }

    // Unknown keys: kept in `extra`, reported as warnings with a suggestion.
    const extra: Record<string, unknown> = {};
    for (const key of Object.keys(raw)) {
      if (KNOWN_SKILL_KEYS.includes(key)) continue;
      extra[key] = raw[key];
      if (key === '') {
        this.out.add(() => this.yaml.spanOfPath(located, [key], 'key'), 'warning', PROBLEM_CODES.unknownField, EMPTY_KEY_MESSAGE);
        continue;
      }
      const suggestion = () => closestKnownKey(key);
      this.out.add(
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
      this.out.add(span, 'error', PROBLEM_CODES.missingTrigger, 'Missing trigger: add `trigger:` (when to use this skill, one sentence) or a `description`.', {
        skillName: declaredName,
      });
    }

    if (format === 'skill-md') {
      if (!body) {
        this.out.add(
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
        this.out.add(
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
      this.out.add(
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
    this.out.add(span, 'error', PROBLEM_CODES.expandedTooLarge, over.message, {
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
    this.out.add(span, problem.severity, problem.code, problem.message, { skillName, data: { key: problem.key } });
  }
}
