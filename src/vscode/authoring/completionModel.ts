import { fieldDoc, fieldDocs, type FieldDoc } from './fieldDocs';
import { isYamlLike, yamlRegion, type SkillFileKind } from './skillFileKinds';

/**
 * Completions for skill fields (pure): top-level keys in YAML frontmatter / YAML files, and
 * enum/boolean values after `key:`. JSON files get theirs from the contributed JSON Schema.
 */

export interface CompletionModelItem {
  readonly label: string;
  /** Snippet syntax (`$1`, `$0`) when `isSnippet`. */
  readonly insertText: string;
  readonly isSnippet: boolean;
  readonly kind: 'property' | 'value';
  readonly detail: string;
  readonly documentation: string;
  /** UTF-16 offsets of the text the item replaces (the word typed so far). */
  readonly replaceStart: number;
  readonly replaceEnd: number;
  readonly sortText?: string;
}

/** Top-level keys already present in a YAML region (so completions do not offer them twice). */
function presentTopLevelKeys(text: string, start: number, end: number): Set<string> {
  const keys = new Set<string>();
  for (const match of text.slice(start, end).matchAll(/^([A-Za-z_][\w-]*)[ \t]*:/gm)) keys.add(match[1]!);
  return keys;
}

function keySnippet(doc: FieldDoc): string {
  switch (doc.valueShape) {
    case 'list':
      return `${doc.key}:\n  - $0`;
    case 'map':
      return `${doc.key}:\n  $0`;
    case 'boolean':
      return `${doc.key}: \${1|true,false|}`;
    default:
      return doc.enumValues ? `${doc.key}: \${1|${doc.enumValues.join(',')}|}` : `${doc.key}: $0`;
  }
}

export function completionsAt(text: string, offset: number, kind: SkillFileKind): CompletionModelItem[] {
  if (!isYamlLike(kind)) return [];
  const region = yamlRegion(text, kind);
  if (!region || offset < region.start || offset > region.end) return [];
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);

  // A key at the start of a line: `ta|` → task_type.
  const keyMatch = /^([A-Za-z_][\w-]*)?$/.exec(before);
  if (keyMatch) {
    const typed = keyMatch[1] ?? '';
    const present = presentTopLevelKeys(text, region.start, region.end);
    const lineEnd = text.indexOf('\n', offset);
    const rest = text.slice(offset, lineEnd < 0 ? text.length : lineEnd);
    const wordEnd = offset + (/^[\w-]*/.exec(rest)?.[0].length ?? 0);
    return fieldDocs(kind)
      .filter((doc) => !present.has(doc.key) || doc.key === typed)
      .map((doc, index) => ({
        label: doc.key,
        insertText: keySnippet(doc),
        isSnippet: true,
        kind: 'property' as const,
        detail: `${doc.type}${doc.required ? ' (required)' : ''}`,
        documentation: doc.description,
        replaceStart: lineStart,
        replaceEnd: wordEnd,
        // Required fields first, then schema order.
        sortText: `${doc.required ? 0 : 1}${String(index).padStart(3, '0')}`,
      }))
      .sort((a, b) => a.sortText.localeCompare(b.sortText));
  }

  // A value after `key: `.
  const valueMatch = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]*([\w-]*)$/.exec(before);
  if (valueMatch) {
    const doc = fieldDoc(kind, valueMatch[1]!);
    if (!doc) return [];
    const values = doc.enumValues ?? (doc.valueShape === 'boolean' ? ['true', 'false'] : []);
    const typed = valueMatch[2] ?? '';
    return values.map((value) => ({
      label: value,
      insertText: value,
      isSnippet: false,
      kind: 'value' as const,
      detail: `${doc.key} value`,
      documentation: doc.description,
      replaceStart: offset - typed.length,
      replaceEnd: offset,
    }));
  }
  return [];
}

/**
 * The field key under the cursor, for hovers: a top-level YAML key (`key:` at column 0 in the
 * YAML region) or a JSON property name (`"key":`). Returns its offsets.
 */
export function keyAt(text: string, offset: number, kind: SkillFileKind): { key: string; start: number; end: number } | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  const line = text.slice(lineStart, lineEnd);
  if (isYamlLike(kind)) {
    const region = yamlRegion(text, kind);
    if (!region || offset < region.start || offset > region.end) return undefined;
    const match = /^([A-Za-z_][\w-]*)[ \t]*:/.exec(line);
    if (!match) return undefined;
    const end = lineStart + match[1]!.length;
    return offset >= lineStart && offset <= end ? { key: match[1]!, start: lineStart, end } : undefined;
  }
  for (const match of line.matchAll(/"([A-Za-z_][\w-]*)"\s*:/g)) {
    const start = lineStart + match.index;
    const end = start + match[1]!.length + 2;
    if (offset >= start && offset <= end) return { key: match[1]!, start, end };
  }
  return undefined;
}
