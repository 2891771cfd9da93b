import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { SkillProblem } from '../../core/skills/packs/document/skillProblems';
import { parentFolderName, isYamlLike, yamlRegion, type SkillFileKind } from './skillFileKinds';

/**
 * Quick-fix edits for skill-file problems, computed on the text alone (pure, unit-tested).
 * Edits are UTF-16 offset ranges; the code-action provider converts them to positions.
 */

export interface OffsetEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

export interface QuickFixModel {
  readonly title: string;
  readonly edits: readonly OffsetEdit[];
  readonly isPreferred?: boolean;
}

const TRIGGER_PLACEHOLDER = 'TODO: when should this skill be used?';
const DESCRIPTION_PLACEHOLDER = 'TODO: what this skill does and when to use it.';
const STEP_PLACEHOLDER = 'TODO: first step';

type ProblemLike = Pick<SkillProblem, 'code' | 'line' | 'column' | 'endLine' | 'endColumn' | 'data'>;

/** Offset of a 1-based line/column. */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column - 1, text.length);
}

function lineBoundsAt(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  return { start, end: newline < 0 ? text.length : newline };
}

/** A top-level YAML key's block: its line and the indented/blank lines that follow (offsets, end after the newline). */
function yamlKeyBlock(text: string, regionStart: number, regionEnd: number, key: string): { start: number; end: number } | undefined {
  const region = text.slice(regionStart, regionEnd);
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^${escaped}[ \\t]*:`, 'm').exec(region);
  if (!match) return undefined;
  const start = regionStart + match.index;
  let cursor = text.indexOf('\n', start);
  if (cursor < 0 || cursor >= regionEnd) return { start, end: Math.min(cursor < 0 ? text.length : cursor + 1, regionEnd) };
  cursor++;
  let end = cursor;
  while (cursor < regionEnd) {
    const next = text.indexOf('\n', cursor);
    const lineEnd = next < 0 || next >= regionEnd ? regionEnd : next + 1;
    const line = text.slice(cursor, lineEnd);
    if (/^[ \t]+\S/.test(line) || /^[ \t]*-/.test(line)) end = lineEnd;
    else if (line.trim() !== '') break;
    cursor = lineEnd;
  }
  return { start, end };
}

/** Text to insert at the end of a YAML region, on a line of its own. */
function appendToRegion(text: string, regionEnd: number, block: string): OffsetEdit {
  const needsNewline = regionEnd > 0 && text[regionEnd - 1] !== '\n';
  return { start: regionEnd, end: regionEnd, newText: `${needsNewline ? '\n' : ''}${block}` };
}

function yamlScalar(value: string): string {
  return stringifyYaml(value).trimEnd();
}

function yamlFixes(text: string, kind: SkillFileKind, fileName: string, problem: ProblemLike): QuickFixModel[] {
  const region = yamlRegion(text, kind);
  if (!region) return [];
  const { start, end } = region;
  switch (problem.code) {
    case 'missing-trigger':
      return [{ title: 'Add a `trigger`', isPreferred: true, edits: [appendToRegion(text, end, `trigger: ${yamlScalar(TRIGGER_PLACEHOLDER)}\n`)] }];
    case 'missing-description':
      return [{ title: 'Add a `description`', isPreferred: true, edits: [appendToRegion(text, end, `description: ${yamlScalar(DESCRIPTION_PLACEHOLDER)}\n`)] }];
    case 'missing-steps': {
      const scaffold = `steps:\n  - ${yamlScalar(STEP_PLACEHOLDER)}\n`;
      const existing = yamlKeyBlock(text, start, end, 'steps');
      const edit = existing ? { start: existing.start, end: existing.end, newText: scaffold } : appendToRegion(text, end, scaffold);
      return [{ title: 'Add a `steps` scaffold', isPreferred: true, edits: [edit] }];
    }
    case 'name-mismatch-folder':
    case 'missing-name':
    case 'invalid-name': {
      const expected = String(problem.data?.expected ?? (problem.code === 'name-mismatch-folder' ? parentFolderName(fileName) : ''));
      if (!expected) return [];
      const block = yamlKeyBlock(text, start, end, 'name');
      const edit = block ? replaceYamlValue(text, block.start, `name`, expected) : appendToRegion(text, end, `name: ${expected}\n`);
      return [{ title: `Change the name to \`${expected}\``, isPreferred: true, edits: [edit] }];
    }
    case 'unknown-field': {
      const key = String(problem.data?.key ?? keyAtProblem(text, problem) ?? '');
      if (!key) return [];
      const fixes: QuickFixModel[] = [];
      const suggestion = problem.data?.suggestion;
      const block = yamlKeyBlock(text, start, end, key);
      if (!block) return [];
      if (typeof suggestion === 'string' && suggestion) {
        fixes.push({
          title: `Rename \`${key}\` to \`${suggestion}\``,
          isPreferred: true,
          edits: [{ start: block.start, end: block.start + key.length, newText: suggestion }],
        });
      }
      const moved = moveYamlKeyToMetadata(text, start, end, key);
      if (moved) fixes.push({ title: `Move \`${key}\` into \`metadata\``, edits: [moved] });
      return fixes;
    }
    case 'mid-line-comment': {
      // The problem spans the value and the comment that cut it; the fix quotes them as one value.
      const quoted = problem.data?.quoted;
      if (typeof quoted !== 'string') return [];
      return [
        {
          title: 'Quote the value (keep the text after #)',
          isPreferred: true,
          edits: [{ start: offsetOf(text, problem.line, problem.column), end: offsetOf(text, problem.endLine, problem.endColumn), newText: quoted }],
        },
      ];
    }
    default:
      return [];
  }
}

/** Replaces the value of `key: value` on the line starting at `lineStart`. */
function replaceYamlValue(text: string, lineStart: number, key: string, value: string): OffsetEdit {
  const { end } = lineBoundsAt(text, lineStart);
  const line = text.slice(lineStart, end).replace(/\r$/, '');
  const colon = line.indexOf(':', key.length);
  const valueStart = lineStart + colon + 1;
  return { start: valueStart, end: lineStart + line.length, newText: ` ${value}` };
}

function keyAtProblem(text: string, problem: ProblemLike): string | undefined {
  const start = offsetOf(text, problem.line, problem.column);
  const end = offsetOf(text, problem.endLine, problem.endColumn);
  const raw = text.slice(start, Math.max(end, start)).replace(/^"|"$/g, '').trim();
  if (/^[A-Za-z_][\w-]*$/.test(raw)) return raw;
  const { start: ls, end: le } = lineBoundsAt(text, start);
  return /^"?([A-Za-z_][\w-]*)"?\s*:/.exec(text.slice(ls, le).trim())?.[1];
}

/** One edit replacing the YAML region: the key's block removed, its value added under `metadata`. */
function moveYamlKeyToMetadata(text: string, start: number, end: number, key: string): OffsetEdit | undefined {
  const block = yamlKeyBlock(text, start, end, key);
  if (!block) return undefined;
  let value: unknown;
  try {
    value = (parseYaml(text.slice(block.start, block.end), { uniqueKeys: false }) as Record<string, unknown> | null)?.[key];
  } catch {
    return undefined;
  }
  const asString = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  let region = text.slice(start, block.start) + text.slice(block.end, end);
  const metadataBlock = yamlKeyBlock(region, 0, region.length, 'metadata');
  let metadata: Record<string, unknown> = {};
  if (metadataBlock) {
    try {
      const parsed = (parseYaml(region.slice(metadataBlock.start, metadataBlock.end), { uniqueKeys: false }) as Record<string, unknown> | null)?.metadata;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) metadata = { ...(parsed as Record<string, unknown>) };
    } catch {
      return undefined;
    }
  }
  metadata[key] = asString;
  const rendered = stringifyYaml({ metadata });
  if (metadataBlock) {
    region = region.slice(0, metadataBlock.start) + rendered + region.slice(metadataBlock.end);
  } else {
    region = `${region}${region.length && !region.endsWith('\n') ? '\n' : ''}${rendered}`;
  }
  return { start, end, newText: region };
}

// --- JSON / JSONL --------------------------------------------------------------------------

function insertAfter(object: Record<string, unknown>, key: string, value: unknown, after: readonly string[]): Record<string, unknown> {
  const entries = Object.entries(object).filter(([k]) => k !== key);
  let index = 0;
  entries.forEach(([k], i) => {
    if (after.includes(k)) index = i + 1;
  });
  entries.splice(index, 0, [key, value]);
  return Object.fromEntries(entries);
}

function jsonObjectFixes(
  object: Record<string, unknown>,
  fileName: string,
  problem: ProblemLike,
): Array<{ title: string; object: Record<string, unknown>; isPreferred?: boolean }> {
  switch (problem.code) {
    case 'missing-trigger':
      return [{ title: 'Add a `trigger`', isPreferred: true, object: insertAfter(object, 'trigger', TRIGGER_PLACEHOLDER, ['name', 'title', 'description']) }];
    case 'missing-steps':
      return [
        {
          title: 'Add a `steps` scaffold',
          isPreferred: true,
          object: insertAfter(object, 'steps', [STEP_PLACEHOLDER], ['name', 'title', 'description', 'trigger', 'triggers', 'task_type', 'tags']),
        },
      ];
    case 'name-mismatch-folder':
    case 'invalid-name': {
      const expected = String(problem.data?.expected ?? (problem.code === 'name-mismatch-folder' ? parentFolderName(fileName) : ''));
      return expected ? [{ title: `Change the name to \`${expected}\``, isPreferred: true, object: { ...object, name: expected } }] : [];
    }
    case 'unknown-field': {
      const key = String(problem.data?.key ?? '');
      if (!key || !(key in object)) return [];
      const fixes: Array<{ title: string; object: Record<string, unknown>; isPreferred?: boolean }> = [];
      const value = object[key];
      const suggestion = problem.data?.suggestion;
      if (typeof suggestion === 'string' && suggestion) {
        fixes.push({
          title: `Rename \`${key}\` to \`${suggestion}\``,
          isPreferred: true,
          object: Object.fromEntries(Object.entries(object).map(([k, v]) => [k === key ? suggestion : k, v])),
        });
      }
      const rest = Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));
      const existing = rest.metadata && typeof rest.metadata === 'object' && !Array.isArray(rest.metadata) ? (rest.metadata as Record<string, unknown>) : {};
      const asString = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
      fixes.push({ title: `Move \`${key}\` into \`metadata\``, object: { ...rest, metadata: { ...existing, [key]: asString } } });
      return fixes;
    }
    default:
      return [];
  }
}

function detectIndent(text: string): number | string {
  const match = /\n([ \t]+)"/.exec(text);
  return match ? (match[1]!.includes('\t') ? '\t' : match[1]!.length) : 2;
}

function jsonFixes(text: string, kind: SkillFileKind, fileName: string, problem: ProblemLike): QuickFixModel[] {
  if (kind === 'json') {
    let object: unknown;
    try {
      object = JSON.parse(text);
    } catch {
      return [];
    }
    if (!object || typeof object !== 'object' || Array.isArray(object)) return [];
    const indent = detectIndent(text);
    const trailing = text.endsWith('\n') ? '\n' : '';
    return jsonObjectFixes(object as Record<string, unknown>, fileName, problem).map((fix) => ({
      title: fix.title,
      ...(fix.isPreferred ? { isPreferred: true } : {}),
      edits: [{ start: 0, end: text.length, newText: JSON.stringify(fix.object, null, indent) + trailing }],
    }));
  }
  // jsonl: fix the one line the problem is on.
  const start = offsetOf(text, problem.line, 1);
  const { end } = lineBoundsAt(text, start);
  const line = text.slice(start, end).replace(/\r$/, '');
  let object: unknown;
  try {
    object = JSON.parse(line);
  } catch {
    return [];
  }
  if (!object || typeof object !== 'object' || Array.isArray(object)) return [];
  return jsonObjectFixes(object as Record<string, unknown>, fileName, problem).map((fix) => ({
    title: fix.title,
    ...(fix.isPreferred ? { isPreferred: true } : {}),
    edits: [{ start, end: start + line.length, newText: JSON.stringify(fix.object) }],
  }));
}

/** The quick fixes for one problem in a skill file (empty when none applies). */
export function quickFixesFor(text: string, kind: SkillFileKind, fileName: string, problem: ProblemLike): QuickFixModel[] {
  return isYamlLike(kind) ? yamlFixes(text, kind, fileName, problem) : jsonFixes(text, kind, fileName, problem);
}

/** Applies offset edits to a text (tests and previews). Edits must not overlap. */
export function applyEdits(text: string, edits: readonly OffsetEdit[]): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((acc, e) => acc.slice(0, e.start) + e.newText + acc.slice(e.end), text);
}
