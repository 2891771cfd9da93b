/**
 * Toolshed's one workspace-trust rule (docs/contracts.md#trust-rule), worded once for every surface:
 *
 * In Restricted Mode (an untrusted workspace) Toolshed uses nothing the workspace supplies and
 * runs no tool for a model. Skills from workspace packs and the workspace's tool examples are
 * hidden from every model path; tool_search still finds tools, but running one — `tool_invoke`
 * from agent mode or a call in @toolshed's own loop — is refused with the same answer. Each
 * surface that would have shown a hidden skill says how many are hidden and how to trust.
 */

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Command id of VS Code's trust editor (the button every surface offers). */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

/** The one line `/skills`, the Skill Directory and the skill tools show. */
export function restrictedModeLine(hiddenSkills: number): string {
  return `Restricted Mode: ${plural(hiddenSkills, 'workspace skill')} hidden — Manage Workspace Trust to use ${hiddenSkills === 1 ? 'it' : 'them'}.`;
}

/** The answer to a model that tried to run a tool in Restricted Mode (agent mode and @toolshed alike). */
export function toolRunRefusal(toolName: string): string {
  return `"${toolName}" was not run: this workspace is not trusted (Restricted Mode), and Toolshed runs no tools there. ` +
    'Tell the user to trust the workspace (Manage Workspace Trust) and ask again; do not retry the call.';
}

/** What `skill_get` says for a skill hidden by Restricted Mode (its name only — never its content). */
export function hiddenSkillReason(): string {
  return 'hidden in Restricted Mode: it comes from a workspace skill pack and this workspace is not trusted (Manage Workspace Trust)';
}

/** How many loaded skills Restricted Mode hides: those of workspace packs (invalid ones were never loaded). */
export function hiddenWorkspaceSkillCount(packs: ReadonlyArray<{ workspace: boolean; skills: ReadonlyArray<{ status: string }> }>): number {
  return packs.filter((pack) => pack.workspace).reduce((n, pack) => n + pack.skills.filter((skill) => skill.status !== 'invalid').length, 0);
}
