import { WORKSPACE_AGENT_FOLDERS } from './skillPackSources';

/**
 * The folder a workspace skill file is counted under when Restricted Mode says what is not used:
 * an agent-skill folder as a whole (`.github/skills/a/SKILL.md` → `.github/skills`), else the
 * file's own folder (`skills/x.skill.md` → `skills`; a file at the root → `.`).
 */
export function skillSourceFolder(relativePath: string): string {
  const path = relativePath.replace(/\\/g, '/');
  for (const folder of WORKSPACE_AGENT_FOLDERS) {
    if (path.startsWith(`${folder}/`)) return folder;
    const inside = path.indexOf(`/${folder}/`);
    if (inside >= 0) return path.slice(0, inside + 1 + folder.length);
  }
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}
