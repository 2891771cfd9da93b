import type { DocumentFormat } from './parsedSkill';

/** File names of skill documents and the names Toolshed generates for skills that declare none. */

export function baseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] ?? file;
}

/** `git/commit-message.skill.md` → `git.commit-message`. */
export function slugOfPath(relativePath: string): string {
  const withoutExt = relativePath.replace(/\.skill\.(md|ya?ml|jsonl?)$/i, '').replace(/[\\/]SKILL\.md$/, '');
  const slug = withoutExt.split(/[\\/]+/).filter(Boolean)
    .map((part) => part.toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^_+|_+$/g, ''))
    .filter(Boolean).join('.');
  return slug || 'skill';
}

export function generatedName(packName: string, relativePath: string, ordinal?: number): string {
  return `pack.${packName}.${slugOfPath(relativePath)}${ordinal !== undefined ? `.${ordinal}` : ''}`;
}

/** `*.skill.md|yaml|yml|json|jsonl` or `SKILL.md`; undefined for anything else. */
export function detectSkillFormat(fileName: string): DocumentFormat | undefined {
  const base = baseName(fileName);
  if (base === 'SKILL.md') return 'skill-md';
  const lower = base.toLowerCase();
  if (lower.endsWith('.skill.md')) return 'md';
  if (lower.endsWith('.skill.yaml') || lower.endsWith('.skill.yml')) return 'yaml';
  if (lower.endsWith('.skill.json')) return 'json';
  if (lower.endsWith('.skill.jsonl')) return 'jsonl';
  return undefined;
}
