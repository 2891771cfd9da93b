import type { FileSystemPort } from '../../platform/ports';
import type { SkillRecord } from '../skillSchema';
import { parseSkillDocument } from './document/skillDocumentParser';
import type { DocumentFormat } from './document/parsedSkill';
import { MAX_SKILL_FILE_BYTES } from './skillPackScanner';

/**
 * A pack skill's body, read from its source file when the skill is fetched (skill_get,
 * rendering) instead of being kept in the skill store: bodies are most of a skill's bytes and
 * search never reads them, so thousands of skills cost sql.js (whose memory is the editor's) only
 * what search needs. The file is read under the loader's rules (a regular file, no link, at most
 * 1 MiB) and parsed again; the last few files' bodies are kept while their text is unchanged, so
 * reading many skills of one file (a JSONL pack) parses it once.
 */

export type SourceBodyReader = (record: SkillRecord) => string | undefined;

const CACHED_FILES = 8;

export function sourceBodyReader(fs: FileSystemPort): SourceBodyReader | undefined {
  const read = fs.readRegularFileSync?.bind(fs);
  if (!read) return undefined;
  const parsed = new Map<string, { text: string; bodies: Map<string, string> }>();
  return (record) => {
    if (record.origin !== 'pack' || !record.source_file || record.format === 'learned') return undefined;
    const bytes = read(record.source_file, MAX_SKILL_FILE_BYTES);
    if (!bytes) return undefined;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let entry = parsed.get(record.source_file);
    if (!entry || entry.text !== text) {
      const relativePath = record.origin_ref.slice(record.origin_ref.indexOf(':') + 1);
      const result = parseSkillDocument(text, record.source_file, { format: record.format as DocumentFormat, packName: record.pack_name, relativePath });
      entry = { text, bodies: new Map(result.skills.map((skill) => [skill.name, skill.body])) };
    }
    // Most recently used last; the oldest goes first.
    parsed.delete(record.source_file);
    parsed.set(record.source_file, entry);
    if (parsed.size > CACHED_FILES) parsed.delete(parsed.keys().next().value as string);
    return entry.bodies.get(record.name);
  };
}
