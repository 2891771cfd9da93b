import type { TaskType } from '../../../config/settingsSchema';
import type { SkillFormat } from '../../skillSchema';
import { splitAllowedTools } from './allowedToolsList';
import { firstHeading, humanize, normalizeTools } from './documentValues';
import type { Span } from './skillProblems';

/** A skill file's format (every skill format except learned skills, which live in the store). */
export type DocumentFormat = Exclude<SkillFormat, 'learned'>;

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

/**
 * Skill content that no file gave field by field (a learned skill, a fixture): everything but
 * `fields` empty, the title the name, task type `unknown`, invocable by the model, at line 1.
 */
export function parsedSkillOf(fields: Partial<ParsedSkill> & Pick<ParsedSkill, 'name' | 'trigger' | 'format'>): ParsedSkill {
  return {
    nameGenerated: false,
    title: fields.name,
    description: '',
    task_type: 'unknown',
    tags: [],
    steps: [],
    preconditions: [],
    failure_modes: [],
    body: '',
    domain: '',
    frames: [],
    triggers: [],
    tools: [],
    allowed_tools: [],
    requires: [],
    meta: {},
    extra: {},
    model_invocable: true,
    span: { line: 1, column: 1, endLine: 1, endColumn: 1 },
    ...fields,
  };
}

/** Fields of the agentskills.io frontmatter (and ours) kept verbatim under `meta`. */
const META_KEYS = [
  'license',
  'compatibility',
  'metadata',
  'argument-hint',
  'user-invokable',
  'user-invocable',
  'disable-model-invocation',
  'cluster',
  'scripts',
];

/** What the parser has already decided about a skill (name, trigger, body, where it is). */
export interface DecidedFields {
  name: string;
  nameGenerated: boolean;
  trigger: string;
  triggers: string[];
  body: string;
  extra: Record<string, unknown>;
  format: DocumentFormat;
  span: Span;
  nameSpan?: Span;
}

/** A validated document's raw fields as a `ParsedSkill`: strings trimmed, lists of strings only. */
export function skillFromFields(raw: Record<string, unknown>, decided: DecidedFields): ParsedSkill {
  const str = (key: string): string => (typeof raw[key] === 'string' ? (raw[key] as string).trim() : '');
  const list = (key: string): string[] => stringList(raw[key]);
  const meta: Record<string, unknown> = {};
  for (const key of META_KEYS) {
    if (raw[key] !== undefined) meta[key] = raw[key];
  }
  // agentskills.io allows only a few top-level fields, so a SKILL.md (an exported learned skill
  // among them) may carry its cluster as `metadata.cluster`; a top-level `cluster` wins.
  const metadata = raw.metadata;
  if (meta.cluster === undefined && metadata !== null && typeof metadata === 'object' && typeof (metadata as Record<string, unknown>).cluster === 'string') {
    meta.cluster = (metadata as Record<string, unknown>).cluster;
  }
  return {
    name: decided.name,
    nameGenerated: decided.nameGenerated,
    title: str('title') || firstHeading(decided.body) || humanize(decided.name),
    description: str('description'),
    trigger: decided.trigger,
    task_type: (raw.task_type as TaskType | undefined) ?? 'unknown',
    tags: list('tags'),
    steps: list('steps'),
    preconditions: list('preconditions'),
    failure_modes: list('failure_modes'),
    body: decided.body,
    domain: str('domain'),
    frames: list('frames'),
    triggers: decided.triggers,
    tools: normalizeTools(raw.tools),
    allowed_tools: splitAllowedTools(raw['allowed-tools']),
    requires: list('requires'),
    meta,
    extra: decided.extra,
    format: decided.format,
    model_invocable: raw['disable-model-invocation'] !== true,
    span: decided.span,
    nameSpan: decided.nameSpan,
  };
}

/** The strings of a list value, trimmed, blanks dropped (anything else: empty). */
export function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value
        .filter((v): v is string => typeof v === 'string')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];
}
