import * as path from 'node:path';

/**
 * VS Code's own agent skills, side by side with Toolshed's.
 *
 * Since VS Code 1.139, agent mode reads `<location>/<skill>/SKILL.md` folders itself when
 * `chat.useAgentSkills` is on (its default). The locations are `chat.agentSkillsLocations`, an
 * object of `path: boolean` whose defaults are the six folders below; relative paths resolve
 * from each workspace folder and `~/` from the home folder. Older hosts have neither setting and
 * offer no skills of their own (`chat.useClaudeSkills` is an older name VS Code migrates to
 * `chat.useAgentSkills`).
 *
 * When VS Code offers a SKILL.md skill to agent mode, Toolshed's agent-mode skill tools leave it
 * out, so a model is not shown one skill twice in two formats. Everything only Toolshed has
 * (`*.skill.*` packs, learned and shared skills, SKILL.md folders outside those locations) stays,
 * and `@toolshed`, which builds its own prompt, keeps using every skill.
 */

/** `chat.agentSkillsLocations`' default entries in VS Code 1.139. */
export const NATIVE_SKILL_LOCATIONS_DEFAULT: readonly string[] = [
  '.agents/skills',
  '.github/skills',
  '.claude/skills',
  '~/.agents/skills',
  '~/.copilot/skills',
  '~/.claude/skills',
];

/** What the host says about its own agent skills (read by the VS Code layer). */
export interface NativeSkillSettings {
  /** False when the host does not know `chat.useAgentSkills` (VS Code before native skills). */
  supported: boolean;
  /** `chat.useAgentSkills`. */
  enabled: boolean;
  /** `chat.agentSkillsLocations` (effective value; undefined: the defaults). */
  locations?: Readonly<Record<string, unknown>>;
}

/** Absolute folders VS Code reads SKILL.md folders from; empty when it offers none. */
export function nativeSkillRoots(settings: NativeSkillSettings, workspaceFolders: readonly string[], homeDir: string | undefined): string[] {
  if (!settings.supported || !settings.enabled) return [];
  const entries = settings.locations
    ? Object.entries(settings.locations)
        .filter(([, on]) => on === true)
        .map(([location]) => location)
    : NATIVE_SKILL_LOCATIONS_DEFAULT;
  const roots = new Set<string>();
  for (const location of entries) {
    // VS Code accepts relative paths and `~/` only (no absolute paths, no backslashes).
    if (!location || path.isAbsolute(location) || location.includes('\\')) continue;
    if (location === '~' || location.startsWith('~/')) {
      if (homeDir) roots.add(path.join(homeDir, location.slice(1)));
      continue;
    }
    for (const folder of workspaceFolders) roots.add(path.join(folder, location));
  }
  return [...roots];
}

/** True for `<root>/<skill>/SKILL.md` with root one of `roots` (the layout VS Code reads). */
export function isNativeSkillFile(file: string, roots: readonly string[]): boolean {
  return nativeRootMatcher(roots)(file);
}

/**
 * `isNativeSkillFile` for many files over the same roots: each root resolved once, each file's
 * folder looked up (`path.relative` per file and root took ~40 µs: 0.4 s of the first agent-mode
 * skill call at 10,000 skills). The same folder as `path.relative`'s `''` means: resolved, and on
 * Windows without regard to case.
 */
function nativeRootMatcher(roots: readonly string[]): (file: string) => boolean {
  const folded = (folder: string) => (process.platform === 'win32' ? path.resolve(folder).toLowerCase() : path.resolve(folder));
  const resolved = new Set(roots.map(folded));
  return (file) => path.basename(file) === 'SKILL.md' && resolved.has(folded(path.dirname(path.dirname(file))));
}

/**
 * Whether a pack whose folder is `packRoot` may hold a skill VS Code offers itself, known without
 * reading its skills: such a skill's file is `<root>/<skill>/SKILL.md` and lies inside the pack's
 * folder (a pack's files are found below its root), so one of `roots` is then inside that folder,
 * is it, or holds it. A pack for which this is false has none of `nativeSkillNames`' names.
 */
export function packMayHoldNativeSkills(packRoot: string, roots: readonly string[]): boolean {
  if (roots.length === 0) return false;
  const folded = (folder: string) => (process.platform === 'win32' ? path.resolve(folder).toLowerCase() : path.resolve(folder));
  const pack = folded(packRoot);
  return roots.some((root) => {
    const native = folded(root);
    return isSameOrInside(native, pack) || isSameOrInside(pack, native);
  });
}

/** `inner` is `outer` or lies below it (both resolved). */
function isSameOrInside(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Names of the pack skills VS Code offers itself (from `<root>/<skill>/SKILL.md` files). */
export function nativeSkillNames(skills: Iterable<{ name: string; file: string; origin: string }>, roots: readonly string[]): Set<string> {
  const names = new Set<string>();
  if (roots.length === 0) return names;
  const isNative = nativeRootMatcher(roots);
  for (const skill of skills) {
    if (skill.origin === 'pack' && isNative(skill.file)) names.add(skill.name);
  }
  return names;
}

/** What `skill_get` / `skill` in agent mode say for a skill VS Code offers itself. */
export function nativeSkillReason(): string {
  return 'VS Code offers it to agent mode itself (native agent skills, chat.useAgentSkills): use it from there';
}

/** The line `/skills` and the Skill Directory show when some skills come from VS Code too. */
export function nativeSkillsLine(count: number): string {
  const skills = `${count} SKILL.md skill${count === 1 ? '' : 's'}`;
  return (
    `${skills} ${count === 1 ? 'is' : 'are'} also VS Code's own agent skill${count === 1 ? '' : 's'} (chat.useAgentSkills): ` +
    "in agent mode VS Code offers them and Toolshed's skill tools leave them out; @toolshed uses every skill."
  );
}
