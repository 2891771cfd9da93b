import * as YAML from 'yaml';
import { redact } from '../../privacy/redaction';
import { normalizeAgentSkillName } from '../../skills/skillSchema';
import type { SkillRecord } from '../../skills/skillSchema';
import { EXPORT_METADATA } from '../../skills/store/learned/exportedLearnedSkills';
import { lineageOf, sourceHashesOf } from '../merge/lineage';

/**
 * One learned skill as an agentskills.io `SKILL.md` (Export as Skill Pack). The
 * frontmatter holds only `name`, `description` and `metadata:` (a string → string map, where
 * Toolshed's lineage, counters and the learned id go), so VS Code, Copilot, Claude and Toolshed's
 * own loader all read it without a warning. The procedure is the markdown body. Every text is
 * redacted first: the file is meant to be committed.
 */

/** agentskills.io limits (the loader warns past them). */
const AGENT_DESCRIPTION_MAX = 1024;

/** Section headings of the body, in order (a step's own lines are indented, so they never start one). */
export const BODY_SECTIONS = {
  when: '## When to use',
  preconditions: '## Preconditions',
  steps: '## Steps',
  failureModes: '## Failure modes',
  notes: '## Notes',
} as const;

/** The counters exported with a skill (learning's feedback; absent → zeros). */
export interface ExportCounters {
  helpful: number;
  harmful: number;
  use_count: number;
}

/**
 * The agentskills.io name (and folder name) of a learned skill: lowercase letters, digits and
 * single hyphens, at most 64 characters — `learned.code.Fix_Build` → `learned-code-fix-build`.
 */
export function agentSkillName(learnedName: string): string {
  return normalizeAgentSkillName(learnedName) || 'learned-skill';
}

/**
 * Text safe to write: line endings normalised, control characters (NUL…) dropped, then redacted.
 * Dropping comes first: a secret split by a control character must not become whole again after
 * redaction has looked at it.
 */
function clean(text: string): string {
  return redact(text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')).trim();
}

/** One line (descriptions): whitespace runs collapsed. */
function oneLine(text: string): string {
  return clean(text).replace(/\s+/g, ' ').trim();
}

/** The description written to the frontmatter: the skill's trigger (what it is for and when), ≤ 1024 characters. */
export function exportedDescription(record: SkillRecord): string {
  const text = oneLine(record.trigger) || oneLine(record.description) || oneLine(record.title) || `Learned skill ${record.name}.`;
  return text.length <= AGENT_DESCRIPTION_MAX ? text : `${text.slice(0, AGENT_DESCRIPTION_MAX - 1).trimEnd()}…`;
}

/** A list item whose further lines are indented under it (so a step never opens a heading or a new item). */
function listItem(marker: string, text: string): string {
  const [first = '', ...rest] = clean(text).split('\n');
  const indent = ' '.repeat(marker.length + 1);
  return [`${marker} ${first}`, ...rest.map((line) => (line ? `${indent}${line}` : ''))].join('\n');
}

function section(heading: string, lines: readonly string[]): string[] {
  return lines.length ? [heading, '', ...lines, ''] : [];
}

/** The markdown body: title, when to use, preconditions, numbered steps, failure modes, notes. */
function exportedBody(record: SkillRecord): string {
  const steps = record.steps.map(clean).filter(Boolean);
  const lines = [
    `# ${oneLine(record.title) || oneLine(record.name)}`,
    '',
    ...section(BODY_SECTIONS.when, [oneLine(record.trigger) || exportedDescription(record)]),
    ...section(
      BODY_SECTIONS.preconditions,
      record.preconditions
        .map(clean)
        .filter(Boolean)
        .map((p) => listItem('-', p)),
    ),
    ...section(
      BODY_SECTIONS.steps,
      (steps.length ? steps : ['Follow the description above.']).map((step, i) => listItem(`${i + 1}.`, step)),
    ),
    ...section(
      BODY_SECTIONS.failureModes,
      record.failure_modes
        .map(clean)
        .filter(Boolean)
        .map((f) => listItem('-', f)),
    ),
    ...section(BODY_SECTIONS.notes, clean(record.body) ? [clean(record.body)] : []),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The `metadata:` map: lineage, counters, the learned id and when it was exported — strings only. */
function exportedMetadata(record: SkillRecord, counters: ExportCounters, exportedAt: number): Record<string, string> {
  const lineage = lineageOf(record);
  const metadata: Record<string, string> = {
    [EXPORT_METADATA.learnedId]: record.id,
    [EXPORT_METADATA.learnedName]: oneLine(record.name),
    [EXPORT_METADATA.sourceHashes]: sourceHashesOf(record).join(' '),
  };
  if (lineage?.merged_from.length) metadata[EXPORT_METADATA.mergedFrom] = lineage.merged_from.map((m) => oneLine(m.name)).join(', ');
  const originRef = oneLine(lineage?.origin_ref ?? record.origin_ref);
  if (originRef) metadata[EXPORT_METADATA.originRef] = originRef;
  metadata[EXPORT_METADATA.helpful] = String(counters.helpful);
  metadata[EXPORT_METADATA.harmful] = String(counters.harmful);
  metadata[EXPORT_METADATA.useCount] = String(counters.use_count);
  metadata[EXPORT_METADATA.exportedAt] = new Date(exportedAt).toISOString();
  const cluster = typeof record.meta.cluster === 'string' ? oneLine(record.meta.cluster) : '';
  if (cluster) metadata[EXPORT_METADATA.cluster] = cluster;
  return metadata;
}

/** The whole SKILL.md text of a learned skill, written under the folder `agentSkillName(record.name)`. */
export function renderSkillMd(record: SkillRecord, counters: ExportCounters, exportedAt: number): string {
  const frontmatter = {
    name: agentSkillName(record.name),
    description: exportedDescription(record),
    metadata: exportedMetadata(record, counters, exportedAt),
  };
  // lineWidth 0: no folding, so no continuation line can ever read as the closing `---`.
  const yaml = YAML.stringify(frontmatter, { lineWidth: 0, minContentWidth: 0 });
  return `---\n${yaml}---\n\n${exportedBody(record)}`;
}
