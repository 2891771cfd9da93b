import type { DocumentFormat } from './parsedSkill';

/** File names of skill documents and the names Toolshed generates for skills that declare none. */

/**
 * Every skill-file format Toolshed reads, in the order messages list them. Detection, the slug of
 * a path, the globs of the editor features and file watchers, the messages and the manifest's
 * `activationEvents` all derive from this table. A format is named by a `suffix`
 * (`name.skill.md`, any case) or by an exact `fileName` (`<name>/SKILL.md`).
 */
const SKILL_FILE_FORMATS: ReadonlyArray<{ readonly format: DocumentFormat; readonly suffix?: string; readonly fileName?: string }> = [
  { format: 'md', suffix: '.skill.md' },
  { format: 'yaml', suffix: '.skill.yaml' },
  { format: 'yaml', suffix: '.skill.yml' },
  { format: 'json', suffix: '.skill.json' },
  { format: 'jsonl', suffix: '.skill.jsonl' },
  { format: 'skill-md', fileName: 'SKILL.md' },
];

const SUFFIXES = SKILL_FILE_FORMATS.flatMap((f) => (f.suffix ? [f.suffix] : []));
const FILE_NAMES = SKILL_FILE_FORMATS.flatMap((f) => (f.fileName ? [f.fileName] : []));

/** One glob a line, at any depth: `**\/*.skill.md`, …, `**\/SKILL.md`. */
export const SKILL_FILE_GLOBS: readonly string[] = SKILL_FILE_FORMATS.map((f) => `**/${f.suffix ? `*${f.suffix}` : f.fileName}`);

/** One brace glob of all of them (`**\/{*.skill.md,…,SKILL.md}`): workspace searches and file watchers. */
export const SKILL_FILE_GLOB = `**/{${SKILL_FILE_GLOBS.map((glob) => glob.replace(/^\*\*\//, '')).join(',')}}`;

/** The formats as a reader is told them: `*.skill.md, *.skill.yaml, … or <name>/SKILL.md`. */
export const SKILL_FILE_FORMATS_TEXT = `${SUFFIXES.map((suffix) => `*${suffix}`).join(', ')} or ${FILE_NAMES.map((name) => `<name>/${name}`).join(', ')}`;

/** The same, short: `*.skill.md|yaml|yml|json|jsonl, <name>/SKILL.md`. */
export const SKILL_FILE_FORMATS_SHORT = `*.skill.${SUFFIXES.map((suffix) => suffix.replace(/^\.skill\./, '')).join('|')}, ${FILE_NAMES.map((name) => `<name>/${name}`).join(', ')}`;

/** A new skill's file, relative to its folder: `name.skill.md`, `name.skill.yaml`, `name/SKILL.md`, … */
export function skillFilePath(name: string, format: DocumentFormat): string {
  const entry = SKILL_FILE_FORMATS.find((f) => f.format === format);
  return entry?.suffix ? `${name}${entry.suffix}` : `${name}/${entry?.fileName ?? ''}`;
}

export function baseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] ?? file;
}

/** `git/commit-message.skill.md` → `git.commit-message`. */
function slugOfPath(relativePath: string): string {
  const lower = relativePath.toLowerCase();
  const suffix = SUFFIXES.find((candidate) => lower.endsWith(candidate));
  const withoutSuffix = suffix ? relativePath.slice(0, -suffix.length) : relativePath;
  const folder = FILE_NAMES.find((name) => withoutSuffix.endsWith(`/${name}`) || withoutSuffix.endsWith(`\\${name}`));
  const withoutExt = folder ? withoutSuffix.slice(0, -(folder.length + 1)) : withoutSuffix;
  const slug = withoutExt
    .split(/[\\/]+/)
    .filter(Boolean)
    .map((part) =>
      part
        .toLowerCase()
        .replace(/[^a-z0-9_-]+/g, '_')
        .replace(/^_+|_+$/g, ''),
    )
    .filter(Boolean)
    .join('.');
  return slug || 'skill';
}

export function generatedName(packName: string, relativePath: string, ordinal?: number): string {
  return `pack.${packName}.${slugOfPath(relativePath)}${ordinal !== undefined ? `.${ordinal}` : ''}`;
}

/** The format of a file by its name (see `SKILL_FILE_FORMATS`); undefined for anything else. */
export function detectSkillFormat(fileName: string): DocumentFormat | undefined {
  const base = baseName(fileName);
  const lower = base.toLowerCase();
  return (SKILL_FILE_FORMATS.find((f) => f.fileName === base) ?? SKILL_FILE_FORMATS.find((f) => f.suffix && lower.endsWith(f.suffix)))?.format;
}
