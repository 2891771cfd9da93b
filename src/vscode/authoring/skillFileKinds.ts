import { detectSkillFormat } from '../../core/skills/packs/document/skillFileNames';
import type { DocumentFormat } from '../../core/skills/packs/document/parsedSkill';

/** Which skill-file format a path is, from its name alone: the loader's own detection. */
export type SkillFileKind = DocumentFormat;
export const skillFileKind: (fileName: string) => SkillFileKind | undefined = detectSkillFormat;

export function isSkillFile(fileName: string): boolean {
  return skillFileKind(fileName) !== undefined;
}

/** Folder name of a path (the name a SKILL.md's `name` must equal). */
export function parentFolderName(fileName: string): string {
  const parts = fileName.replace(/\\/g, '/').split('/');
  return parts[parts.length - 2] ?? '';
}

/** Whether the format keeps fields in a YAML mapping (frontmatter or a YAML file). */
export function isYamlLike(kind: SkillFileKind): boolean {
  return kind === 'md' || kind === 'skill-md' || kind === 'yaml';
}

/**
 * The region of the text that holds the YAML fields: the frontmatter of Markdown formats
 * (between the opening and closing `---`), or the whole file for YAML. Offsets are UTF-16.
 * `closed` is false when the frontmatter is never closed.
 */
export function yamlRegion(text: string, kind: SkillFileKind): { start: number; end: number; closed: boolean } | undefined {
  if (kind === 'yaml') return { start: 0, end: text.length, closed: true };
  if (kind !== 'md' && kind !== 'skill-md') return undefined;
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const open = /^---[ \t]*\r?\n/.exec(text.slice(bom));
  if (!open) return undefined;
  const start = bom + open[0].length;
  const close = /^---[ \t]*$/m;
  const rest = text.slice(start);
  const match = close.exec(rest);
  if (!match) return { start, end: text.length, closed: false };
  return { start, end: start + match.index, closed: true };
}
