/**
 * Toolshed's one workspace-trust rule (docs/contracts.md#trust-rule), worded once for every surface:
 *
 * In Restricted Mode (an untrusted workspace) Toolshed uses nothing the workspace supplies and
 * runs no tool for a model. Skills from workspace packs and the workspace's tool examples are
 * hidden from every model path; tool_search still finds tools, but running one — `tool_invoke`
 * from agent mode or a call in @toolshed's own loop — is refused with the same answer. Each
 * surface that lists skills says what the workspace supplies that is not used, and how to trust.
 */

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Command id of VS Code's trust editor (the button every surface offers). */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

/** Skill files one place of an untrusted workspace supplies (a skill folder, or a folder with `*.skill.*` files). */
export interface UnusedSkillSource {
  /** Workspace-relative folder: `.github/skills`, `.claude/skills`, `skills`, `.` for the root. */
  folder: string;
  files: number;
}

/** What an untrusted workspace supplies that Toolshed does not use: skill files by folder, packs its settings name. */
export interface UnusedWorkspaceSkills {
  sources: readonly UnusedSkillSource[];
  /** Names of skill packs configured in the workspace's settings (`toolshed.skills.packs`). */
  settingsPacks: readonly string[];
}

/**
 * The one line `/skills`, the Skill Directory and `skill_list` show in Restricted Mode: what the
 * workspace supplies that is not used, and why; undefined when it supplies no skill source.
 */
export function restrictedModeLine(unused: UnusedWorkspaceSkills): string | undefined {
  const files = unused.sources.reduce((n, source) => n + source.files, 0);
  if (files === 0 && unused.settingsPacks.length === 0) return undefined;
  const parts: string[] = [];
  if (files > 0) parts.push(`${plural(files, 'workspace skill file')} (${unused.sources.map((source) => `\`${source.folder}\` ${source.files}`).join(', ')})`);
  if (unused.settingsPacks.length > 0)
    parts.push(
      `the skill ${unused.settingsPacks.length === 1 ? 'pack' : 'packs'} ${unused.settingsPacks.map((name) => `\`${name}\``).join(', ')} from its settings`,
    );
  return `Restricted Mode: ${parts.join(' and ')} not used — this workspace is not trusted. Manage Workspace Trust to use them.`;
}

/** The answer to a model that tried to run a tool in Restricted Mode (agent mode and @toolshed alike). */
export function toolRunRefusal(toolName: string): string {
  return (
    `"${toolName}" was not run: this workspace is not trusted (Restricted Mode), and Toolshed runs no tools there. ` +
    'Tell the user to trust the workspace (Manage Workspace Trust) and ask again; do not retry the call.'
  );
}

/** What `skill_get` says for a skill hidden by Restricted Mode (its name only — never its content). */
export function hiddenSkillReason(): string {
  return 'hidden in Restricted Mode: it comes from a workspace skill pack and this workspace is not trusted (Manage Workspace Trust)';
}
