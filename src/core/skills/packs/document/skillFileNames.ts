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
