import { createHash, hash } from 'node:crypto';
import { canonicalJson } from '../../platform/canonicalJson';
import type { ScopeMode, TaskType } from '../../config/settingsSchema';
import { parsedSkillOf } from '../packs/document/parsedSkill';
import type { ParsedSkill } from '../packs/document/parsedSkill';
import type { SkillFormat, SkillOrigin, SkillRecord } from '../skillSchema';
import { makeScope } from './skillScope';
import type { SkillScope } from './skillScope';

/** Turns parsed skill content into store records: ids, content hashes (docs/contracts.md#hashes), status. */

export interface RecordContext {
  origin: SkillOrigin;
  originRef: string;
  scopeMode: ScopeMode;
  tenantId?: string;
  projectId?: string;
  packName: string;
  workspace: boolean;
  sourceFile: string;
  resources?: string[];
  now: number;
  env: Readonly<Record<string, string | undefined>>;
}

/** What a content hash covers: a skill's content fields and its resources. */
type HashedContent = Omit<ParsedSkill, 'span' | 'nameSpan' | 'nameGenerated'> & { resources?: string[] };

/**
 * The content fields, in the order canonical JSON sorts their keys (code-unit order, as
 * `Array.prototype.sort` compares them): both definitions take them in this order.
 */
const HASHED_FIELDS = [
  'allowed_tools',
  'body',
  'description',
  'domain',
  'extra',
  'failure_modes',
  'format',
  'frames',
  'meta',
  'model_invocable',
  'name',
  'preconditions',
  'requires',
  'resources',
  'steps',
  'tags',
  'task_type',
  'title',
  'tools',
  'trigger',
  'triggers',
] as const satisfies ReadonlyArray<keyof HashedContent>;

/** Each field's `"key":` as canonical JSON writes it (the first definition's text). */
const FIELD_PREFIXES = HASHED_FIELDS.map((field) => `${JSON.stringify(field)}:`);

/** What a content hash of the current definition starts with: its version (the first definition's hashes are bare hex). */
const CONTENT_HASH_VERSION = 'c2:';

/**
 * The fields whose change means "the skill changed" (docs/contracts.md#hashes): `c2:` + sha256 of
 * the UTF-16 code units of the content fields one after another, each framed: `s<length>:<text>`
 * for a string, `l<count>:` then `<length>:<text>` per item for a list of strings, `u` when
 * absent, else `j<length>:<canonical JSON>`. Every frame says where it ends, so two different
 * records never frame to the same text.
 */
export function contentHash(content: HashedContent): string {
  // A cold load hashes every skill of a library (10,000 real ones: 70 MB of bodies). The text is
  // hashed as it is, each field after a type letter and its length: no JSON escaping pass over
  // the bodies (two thirds of them two-byte strings) and no sorting. UTF-16 code units, not
  // UTF-8: lone surrogates (a YAML escape can make one) would all encode as U+FFFD and two
  // different texts hash alike. A long text goes to the hash on its own, the short frames around
  // it joined first (no copy of the long one into a joined string).
  const sha = createHash('sha256');
  let out = '';
  const text = (value: string): void => {
    out += `${value.length}:`;
    if (value.length < LONG_TEXT) out += value;
    else {
      sha.update(out, 'utf16le');
      sha.update(value, 'utf16le');
      out = '';
    }
  };
  for (let i = 0; i < HASHED_FIELDS.length; i++) {
    const field = HASHED_FIELDS[i] as (typeof HASHED_FIELDS)[number];
    const value: unknown = field === 'resources' ? (content.resources ?? []) : content[field];
    if (typeof value === 'string') {
      out += 's';
      text(value);
    } else if (value === undefined || typeof value === 'function') out += 'u';
    else if (isStringList(value)) {
      const list = value as readonly string[];
      out += `l${list.length}:`;
      for (let k = 0; k < list.length; k++) text(list[k] as string);
    } else {
      out += 'j';
      text(canonicalJson(value));
    }
  }
  sha.update(out, 'utf16le');
  return CONTENT_HASH_VERSION + sha.digest('hex');
}

/** Texts at least this long are handed to the hash on their own rather than joined to the frames around them. */
const LONG_TEXT = 256;

/** Whether `hash` is of the current definition (a stored one may be of the first: `legacyContentHash`). */
export function isCurrentContentHash(hash: string): boolean {
  return hash.startsWith(CONTENT_HASH_VERSION);
}

/**
 * The first definition, which stores written before `c2:` hold: sha256 of the canonical JSON of
 * the content fields (`resources` an empty list when not given). Kept only to compare a stored
 * skill of that definition with its file read again (skillPackWriter), which then stores it
 * with the current hash.
 */
export function legacyContentHash(content: HashedContent): string {
  let out = '{';
  for (let i = 0; i < HASHED_FIELDS.length; i++) {
    const field = HASHED_FIELDS[i] as (typeof HASHED_FIELDS)[number];
    const value: unknown = field === 'resources' ? (content.resources ?? []) : content[field];
    if (value === undefined || typeof value === 'function') continue;
    if (out.length > 1) out += ',';
    out += FIELD_PREFIXES[i] as string;
    out += typeof value === 'string' || isStringList(value) ? JSON.stringify(value) : canonicalJson(value);
  }
  return hash('sha256', `${out}}`, 'hex');
}

/** A list of strings only (JSON writes it as canonical JSON does: no keys to sort, no holes). */
function isStringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/**
 * Deterministic opaque id: `sk_` + 20 hex of sha256(origin + name [+ scope]). Global skills keep
 * the id they had before names became unique per scope; other scopes mix the scope in, so the
 * same name in two scopes gets two ids.
 */
export function skillId(origin: SkillOrigin, name: string, scope?: SkillScope): string {
  const scoped = scope && scope.scope_mode !== 'global' ? `\u0000${scope.scope_mode}\u0000${scope.scope_tenant_id}\u0000${scope.scope_project_id}` : '';
  return `sk_${createHash('sha256').update(`${origin}\u0000${name}${scoped}`).digest('hex').slice(0, 20)}`;
}

/** `requires` check: all listed environment variables set and non-empty. */
function requirementStatus(requires: readonly string[], env: Readonly<Record<string, string | undefined>>): { status: 'active' | 'inactive'; reason: string } {
  const missing = requires.filter((name) => !env[name]);
  if (missing.length === 0) return { status: 'active', reason: '' };
  return { status: 'inactive', reason: `missing environment variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}` };
}

export function toRecord(skill: ParsedSkill, ctx: RecordContext, existing?: SkillRecord): SkillRecord {
  const resources = ctx.resources ?? [];
  const { status, reason } = requirementStatus(skill.requires, ctx.env);
  const scope = makeScope(ctx.scopeMode, ctx.tenantId, ctx.projectId);
  return {
    id: existing?.id ?? skillId(ctx.origin, skill.name, scope),
    name: skill.name,
    title: skill.title,
    description: skill.description,
    trigger: skill.trigger,
    task_type: skill.task_type,
    tags: skill.tags,
    steps: skill.steps,
    preconditions: skill.preconditions,
    failure_modes: skill.failure_modes,
    body: skill.body,
    origin: ctx.origin,
    origin_ref: ctx.originRef,
    content_hash: contentHash({ ...skill, resources }),
    ...scope,
    created_at: existing?.created_at ?? ctx.now,
    updated_at: ctx.now,
    last_used: existing?.last_used ?? 0,
    use_count: existing?.use_count ?? 0,
    domain: skill.domain,
    frames: skill.frames,
    triggers: skill.triggers,
    tools: skill.tools,
    allowed_tools: skill.allowed_tools,
    requires: skill.requires,
    meta: skill.meta,
    resources,
    extra: skill.extra,
    pack_name: ctx.packName,
    workspace: ctx.workspace,
    source_file: ctx.sourceFile,
    source_line: skill.span.line,
    format: skill.format as SkillFormat,
    status,
    status_reason: reason,
    model_invocable: skill.model_invocable,
  };
}

/** What a caller supplies to teach a skill (learning's approvals, an LM tool, an import). */
export interface LearnedSkillInput {
  name: string;
  title?: string;
  description?: string;
  trigger: string;
  task_type?: TaskType;
  tags?: string[];
  steps: string[];
  preconditions?: string[];
  failure_modes?: string[];
  body?: string;
  scope_mode?: ScopeMode;
  tenant_id?: string;
  project_id?: string;
  origin_ref?: string;
  /** Theme (stored as `meta.cluster`, like a pack skill's `cluster` field). */
  cluster?: string;
  extra?: Record<string, unknown>;
}

/**
 * The record of a learned skill: `input` with its name and trigger trimmed and blank steps left
 * out, stored in `scope` at `now`. `previous`, the learned record it replaces, keeps its id,
 * creation time and uses.
 */
export function learnedRecord(input: LearnedSkillInput, scope: SkillScope, now: number, previous?: SkillRecord): SkillRecord {
  const name = input.name.trim();
  const record = toRecord(
    parsedSkillOf({
      name,
      title: input.title ?? name,
      description: input.description ?? '',
      trigger: input.trigger.trim(),
      task_type: input.task_type ?? 'unknown',
      tags: input.tags ?? [],
      steps: input.steps.filter((s) => s.trim()),
      preconditions: input.preconditions ?? [],
      failure_modes: input.failure_modes ?? [],
      body: input.body ?? '',
      meta: input.cluster ? { cluster: input.cluster } : {},
      extra: input.extra ?? {},
      format: 'learned' as never,
    }),
    {
      origin: 'learned',
      originRef: input.origin_ref ?? 'learned',
      scopeMode: scope.scope_mode,
      tenantId: scope.scope_tenant_id,
      projectId: scope.scope_project_id,
      packName: '',
      workspace: false,
      sourceFile: '',
      now,
      env: {},
    },
    previous,
  );
  return { ...record, id: previous?.id ?? skillId('learned', name, scope), format: 'learned' };
}
