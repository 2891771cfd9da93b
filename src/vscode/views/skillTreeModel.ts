import type { PackStatuses, PackView, SkillView } from './skillDirectorySource';
import { describeScope } from '../../core/skills/store/skillScope';

/**
 * What the Skill Directory shows, computed without `vscode` so it is unit-tested in plain Node.
 * `skillDirectoryView.ts` turns these into `TreeItem`s.
 */

export interface SkillNodeModel {
  readonly label: string;
  readonly description: string;
  /** Markdown tooltip. */
  readonly tooltip: string;
  /** Codicon id (`$(id)` without the wrapper) and an optional theme colour id. */
  readonly icon: string;
  readonly iconColor?: string;
  /** `skill`, plus `.pinned`/`.unpinned`, `.invalid`/`.inactive`, `.file` when it has a source file. */
  readonly contextValue: string;
}

export interface PackNodeModel {
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  readonly icon: string;
  readonly contextValue: string;
}

const TASK_TYPE_ICONS: Readonly<Record<string, string>> = {
  browser: 'globe',
  api: 'plug',
  code: 'code',
  domain: 'book',
  unknown: 'lightbulb',
};

export function taskTypeIcon(taskType: string): string {
  return TASK_TYPE_ICONS[taskType] ?? TASK_TYPE_ICONS.unknown!;
}

const PACK_KIND_LABELS: Readonly<Record<PackView['kind'], string>> = {
  builtIn: 'built-in',
  workspace: 'workspace',
  user: 'user folder',
  configured: 'configured',
  learned: 'learned',
  cluster: 'cluster',
};

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Escapes text for a MarkdownString (no command links, no HTML). */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}

export function packNode(pack: PackView): PackNodeModel {
  const invalid = pack.skills.filter((s) => s.status === 'invalid').length;
  const inactive = pack.skills.filter((s) => s.status === 'inactive').length;
  const parts = [plural(pack.skills.length, 'skill')];
  if (invalid) parts.push(`${invalid} invalid`);
  if (inactive) parts.push(`${inactive} inactive`);
  const packProblems = pack.problems?.length ?? 0;
  if (packProblems) parts.push(plural(packProblems, 'problem'));
  const tooltip = [
    `**${escapeMarkdown(pack.name)}** (${PACK_KIND_LABELS[pack.kind]}${pack.kind === 'cluster' ? '' : ' pack'})`,
    pack.root ? `\n\n\`${pack.root}\`` : '',
    `\n\n${parts.join(' · ')}`,
  ].join('');
  return {
    label: pack.name,
    description: `${PACK_KIND_LABELS[pack.kind]} · ${parts.join(', ')}`,
    tooltip,
    icon: pack.kind === 'builtIn' ? 'package' : pack.kind === 'learned' ? 'mortar-board' : pack.kind === 'cluster' ? 'symbol-namespace' : 'folder-library',
    contextValue: `pack.${pack.kind}`,
  };
}

export function skillNode(skill: SkillView, pinned: boolean): SkillNodeModel {
  const label = skill.title && skill.title !== skill.name ? `${skill.title}` : skill.name;
  let description = skill.trigger || skill.description;
  if (skill.status !== 'active') {
    description = `${skill.status}${skill.statusReason ? `: ${skill.statusReason}` : ''}`;
  }
  if (label !== skill.name) description = `${skill.name} — ${description}`;
  const context = ['skill', pinned ? 'pinned' : 'unpinned', skill.status];
  if (skill.retired) context.push('retired');
  if (skill.sourceFile) context.push('file');
  // `learned.project` / `learned.tenant` can be promoted (a global one is as wide as it gets).
  if (skill.learnedScope) context.push('learned', skill.learnedScope.scope_mode);
  return {
    label,
    description: description.replace(/\s+/g, ' ').trim(),
    tooltip: skillTooltip(skill, pinned),
    icon: skill.status === 'invalid' ? 'error' : skill.status === 'inactive' ? 'circle-slash' : pinned ? 'pinned' : taskTypeIcon(skill.taskType),
    ...(skill.status === 'invalid' ? { iconColor: 'problemsErrorIcon.foreground' } : skill.status === 'inactive' ? { iconColor: 'disabledForeground' } : {}),
    contextValue: context.join('.'),
  };
}

function skillTooltip(skill: SkillView, pinned: boolean): string {
  const lines: string[] = [];
  lines.push(`**${escapeMarkdown(skill.title || skill.name)}**${pinned ? ' (pinned)' : ''}`);
  lines.push(`\`${skill.name}\` · ${skill.taskType} · pack \`${skill.packName}\`${skill.cluster ? ` · cluster *${escapeMarkdown(skill.cluster)}*` : ''}`);
  if (skill.trigger) lines.push(`*When:* ${escapeMarkdown(skill.trigger)}`);
  if (skill.description && skill.description !== skill.trigger) lines.push(escapeMarkdown(skill.description));
  if (skill.tags.length) lines.push(`*Tags:* ${skill.tags.map((t) => `\`${t}\``).join(' ')}`);
  if (skill.stepCount) lines.push(`*Steps:* ${skill.stepCount}`);
  if (skill.lineage?.length) lines.push(`*Lineage:* ${skill.lineage.map(escapeMarkdown).join('  \n')}`);
  if (skill.learnedScope) lines.push(`*Scope:* ${escapeMarkdown(describeScope(skill.learnedScope))}`);
  if (skill.status !== 'active') {
    lines.push(`**${skill.status === 'invalid' ? 'Invalid' : 'Inactive'}:** ${escapeMarkdown(skill.statusReason ?? 'see Problems')}`);
  }
  for (const problem of (skill.problems ?? []).slice(0, 5)) {
    lines.push(`- ${problem.severity}: ${escapeMarkdown(problem.message)} (line ${problem.line})`);
  }
  if (skill.sourceFile) lines.push(`\`${skill.sourceFile}${skill.sourceLine ? `:${skill.sourceLine}` : ''}\``);
  return lines.join('\n\n');
}

/**
 * Description and badge of the Skill Directory view. The badge means "something needs you"
 * (skills that failed validation); at rest there is none. Invalid skills are never counted
 * as loaded.
 */
export function directorySummary(packs: readonly PackStatuses[]): { description: string; badge?: { count: number; tooltip: string } } {
  const skills = packs.flatMap((p) => p.skills);
  const invalid = skills.filter((s) => s.status === 'invalid').length;
  // The count is of skills in use, as `/skills` counts them: an inactive one (e.g. a learned copy
  // retired by its export as a pack skill) is listed but not counted twice.
  const inactive = skills.filter((s) => s.status === 'inactive').length;
  const loaded = skills.length - invalid - inactive;
  const parts = [plural(loaded, 'skill'), plural(packs.filter((p) => p.skills.length > 0).length, 'pack')];
  if (inactive) parts.push(`${inactive} inactive`);
  if (invalid) parts.push(`${invalid} invalid`);
  return {
    description: parts.join(' · '),
    ...(invalid ? { badge: { count: invalid, tooltip: `${plural(invalid, 'invalid skill')} to fix (${plural(loaded, 'skill')} loaded) — see Problems` } } : {}),
  };
}

/**
 * The text a chat reference to a skill inserts: a `#file:` reference when the skill file is in
 * the workspace (the chat attaches it), otherwise the participant's `/skill` command.
 */
export function skillChatReference(skill: Pick<SkillView, 'name' | 'sourceFile'>, workspaceRelativePath?: string): string {
  if (workspaceRelativePath && !workspaceRelativePath.startsWith('..')) return `#file:${workspaceRelativePath.replace(/\\/g, '/')} `;
  return `@toolshed /skill ${skill.name} `;
}
