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

/** The fields whose change means "the skill changed" (sorted-key JSON → sha256). */
export function contentHash(content: Omit<ParsedSkill, 'span' | 'nameSpan' | 'nameGenerated'> & { resources?: string[] }): string {
  const canonical = {
    name: content.name,
    title: content.title,
    description: content.description,
    trigger: content.trigger,
    task_type: content.task_type,
    tags: content.tags,
    steps: content.steps,
    preconditions: content.preconditions,
    failure_modes: content.failure_modes,
    body: content.body,
    domain: content.domain,
    frames: content.frames,
    triggers: content.triggers,
    tools: content.tools,
    allowed_tools: content.allowed_tools,
    requires: content.requires,
    meta: content.meta,
    extra: content.extra,
    format: content.format,
    model_invocable: content.model_invocable,
    resources: content.resources ?? [],
  };
  // One-shot hashing (no Hash object per skill): a cold load hashes every skill of the library.
  return hash('sha256', canonicalJson(canonical), 'hex');
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
