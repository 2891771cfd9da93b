import { stringify } from 'yaml';
import { clusterLabel } from '../../skills/skillClusters';
import type { SkillRecord } from '../../skills/skillSchema';

/**
 * A merge shown before it happens: when a model rewrote a proposal's text,
 * folding it into an existing learned skill is its own proposal that a person approves, edits
 * or rejects. The review says which lines the merge would add (a merge never removes or
 * rewrites a line: see lineage.ts `unite`) and renders the skill before and after as skill
 * documents for a diff view.
 */

export interface MergeAdditions {
  steps: string[];
  preconditions: string[];
  failure_modes: string[];
  tags: string[];
}

export interface MergeReview {
  /** The learned skill the proposal would merge into. */
  target: string;
  score: number;
  identical: boolean;
  /** Lines the merge would add to the target, per field. */
  added: MergeAdditions;
  /** The target as stored now, and as the merge would store it (skill documents). */
  before: string;
  after: string;
}

export function mergeReview(match: { name: string; score: number; identical: boolean }, current: SkillRecord, merged: SkillRecord): MergeReview {
  const added = (field: keyof MergeAdditions) => {
    const had = new Set(current[field]);
    return merged[field].filter((line) => !had.has(line));
  };
  return {
    target: match.name,
    score: match.score,
    identical: match.identical,
    added: { steps: added('steps'), preconditions: added('preconditions'), failure_modes: added('failure_modes'), tags: added('tags') },
    before: skillDocument(current),
    after: skillDocument(merged),
  };
}

/** Whether the merge would change the skill's text at all (an identical re-learn adds only lineage). */
export function changesText(review: Pick<MergeReview, 'added'>): boolean {
  return Object.values(review.added).some((lines) => lines.length > 0);
}

/** One line per addition, for a notification or a tooltip. */
export function describeAdditions(added: MergeAdditions): string {
  const parts = (
    [
      ['steps', 'step'],
      ['preconditions', 'precondition'],
      ['failure_modes', 'failure mode'],
      ['tags', 'tag'],
    ] as const
  )
    .filter(([field]) => added[field].length > 0)
    .map(([field, noun]) => `${added[field].length} ${noun}${added[field].length === 1 ? '' : 's'}`);
  return parts.length ? `adds ${parts.join(', ')}` : 'adds no text';
}

function skillDocument(record: SkillRecord): string {
  const cluster = clusterLabel(record.meta.cluster);
  const frontmatter = {
    name: record.name,
    title: record.title,
    task_type: record.task_type,
    tags: record.tags,
    ...(cluster ? { cluster } : {}),
    trigger: record.trigger,
    steps: record.steps,
    ...(record.preconditions.length ? { preconditions: record.preconditions } : {}),
    ...(record.failure_modes.length ? { failure_modes: record.failure_modes } : {}),
  };
  return `---\n${stringify(frontmatter, { lineWidth: 0 }).trimEnd()}\n---\n`;
}
