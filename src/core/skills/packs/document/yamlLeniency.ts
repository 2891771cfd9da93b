import type * as YAML from 'yaml';
import type { LineIndex } from './lineIndex';
import { makeProblem, PROBLEM_CODES } from './skillProblems';
import type { SkillProblem } from './skillProblems';

/** An empty key (`: value`): the parser reads it as the field `''`, kept as extra metadata. */
export const EMPTY_KEY_MESSAGE = 'Empty key: this value has no field name (`: value`); it is kept as extra metadata. Give it a key or delete the line.';

/**
 * What the YAML parser reads past without failing: an unknown tag (`!!python/object:…`,
 * `!custom`; the value is read as plain text), an unsupported `%YAML` version (read as 1.2), a
 * `%TAG` directive (its tags are not resolved either). Real-world files load leniently — a
 * descriptive field with a stray tag is still a description — but never in silence: each gets a
 * warning where it is written. The document was parsed from the file's text (`index.text`)
 * starting at offset `base`.
 */
export function yamlLeniencyProblems(doc: YAML.Document.Parsed, base: number, index: LineIndex, file: string): SkillProblem[] {
  const source = index.text;
  const problems: SkillProblem[] = [];
  const warn = (start: number, end: number, message: string) =>
    problems.push(makeProblem(file, index.span(start, Math.max(end, start + 1)), 'warning', PROBLEM_CODES.yamlIgnored, message));
  for (const warning of doc.warnings) {
    const [from, to] = warning.pos;
    const start = base + from;
    const end = base + Math.max(to, from + 1);
    if (warning.code === 'TAG_RESOLVE_FAILED') {
      const tag = source.slice(start, end).trim() || warning.message;
      warn(start, end, `Unknown YAML tag \`${tag}\`: ignored, the value is read as plain text. Remove the tag.`);
    } else if (warning.code === 'BAD_DIRECTIVE') {
      const directive = lineText(source, index, index.position(start).line);
      warn(start, end, `\`${directive}\`: ${firstSentence(warning.message)}; the file is read as YAML 1.2. Remove the directive.`);
    } else {
      warn(start, end, `YAML read leniently: ${firstSentence(warning.message)}.`);
    }
  }
  // `%TAG` parses without a warning; its handles never resolve to anything Toolshed reads.
  const docStart = base + (doc.range?.[0] ?? 0);
  for (const handle of Object.keys(doc.directives?.tags ?? {})) {
    if (handle === '!!') continue;
    const at = source.lastIndexOf(`%TAG ${handle}`, docStart);
    if (at < base) continue;
    const end = source.indexOf('\n', at);
    warn(at, end < 0 ? source.length : end, `\`%TAG ${handle}\` directive: ignored, tags are not resolved in skill files. Remove it.`);
  }
  return problems;
}

function lineText(source: string, index: LineIndex, line: number): string {
  const start = index.lineStart(line);
  const end = source.indexOf('\n', start);
  return source.slice(start, end < 0 ? source.length : end).trim();
}

function firstSentence(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/[.:]\s*$/, '');
}
