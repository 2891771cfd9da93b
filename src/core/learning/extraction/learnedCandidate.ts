import { createHash } from 'node:crypto';
import type { TaskType } from '../../config/settingsSchema';
import { analyze, splitIdentifier } from '../../search/textAnalysis';

/**
 * A candidate skill produced by learning: the fields a skill needs, already depersonalized,
 * plus what learning itself keeps (kind, citations, the source hash). It becomes a
 * stored skill only when a person approves it.
 */
export interface LearnedCandidate {
  kind: 'positive' | 'negative';
  name: string;
  title: string;
  trigger: string;
  task_type: TaskType;
  tags: string[];
  steps: string[];
  failure_modes: string[];
  /** Citations checked before use: tools it names, workspace files it mentions. */
  citations: { tools: string[]; files: string[] };
  source_hash: string;
  /**
   * Theme (cluster) chosen in the approval flow: absent = not chosen (approval takes the
   * cluster of the most similar existing skill), `''` = explicitly none.
   */
  cluster?: string;
}

export const MAX_STEPS = 8;
const WORD_STOP = new Set([
  'please',
  'could',
  'would',
  'then',
  'also',
  'just',
  'need',
  'want',
  'make',
  'sure',
  'into',
  'with',
  'from',
  'that',
  'this',
  'what',
  'about',
  'there',
  'their',
  'fixture',
  'path',
  'user',
]);

/** The source hash (docs/contracts.md#hashes): sha256(trigger_norm + "\n" + steps_norm + "\n" + task_type). */
export function sourceHash(trigger: string, steps: readonly string[], taskType: TaskType): string {
  const norm = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
  return createHash('sha256')
    .update(`${norm(trigger)}\n${steps.map(norm).join('\n')}\n${taskType}`)
    .digest('hex');
}

/** Readable keywords of a text (no stems, no stop words), in first-seen order. */
export function keywords(text: string, limit: number): string[] {
  const seen = new Set<string>();
  for (const raw of splitIdentifier(text)) {
    const word = raw.toLowerCase();
    if (word.length < 3 || /^\d+$/.test(word) || WORD_STOP.has(word) || analyze(word).length === 0) continue;
    seen.add(word);
    if (seen.size >= limit) break;
  }
  return [...seen];
}

export function slug(words: readonly string[], maxLength = 48): string {
  const joined = words
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return (joined.slice(0, maxLength).replace(/-[^-]*$/, (tail) => (joined.length > maxLength ? '' : tail)) || 'skill').replace(/-$/, '');
}

const TASK_TYPE_HINTS: ReadonlyArray<readonly [TaskType, RegExp]> = [
  ['browser', /\b(?:browser|page|click|navigate|playwright|selenium|puppeteer|dom|screenshot|webpage)\b/gi],
  ['code', /\b(?:files|edit|code|test|tests|lint|build|compile|refactor|commit|git|diff|branch|function|class|terminal|npm)\b/gi],
  ['api', /\b(?:api|http|https|fetch|request|endpoint|graphql|rest|webhook|issue|issues|pull|deploy|forecast|weather|service)\b/gi],
  ['domain', /\b(?:policy|policies|compliance|legal|finance|accounting|medical|contract)\b/gi],
];

/** `task_type` from the tools used and the words of the request: the type with most hints (ties: first listed). */
export function inferTaskType(toolNames: readonly string[], request: string): TaskType {
  const text = `${toolNames.map((name) => splitIdentifier(name).join(' ')).join(' ')} ${request}`;
  let best: TaskType = 'unknown';
  let bestCount = 0;
  for (const [type, pattern] of TASK_TYPE_HINTS) {
    const count = text.match(pattern)?.length ?? 0;
    if (count > bestCount) {
      best = type;
      bestCount = count;
    }
  }
  return best;
}

/**
 * `learned.<task type>.<slug>`; a task type that could not be told (`unknown`) is left out
 * rather than written into the name, the exported folder and every label.
 */
export function learnedSkillName(taskType: TaskType, slugText: string): string {
  return taskType === 'unknown' ? `learned.${slugText}` : `learned.${taskType}.${slugText}`;
}

/** The task type as a label part, or '' when it is not known. */
export function taskTypeLabel(taskType: string): string {
  return taskType === 'unknown' ? '' : taskType;
}

export function titleOf(text: string, maxWords = 9): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').slice(0, maxWords);
  // A cut title should not end on a joining word ("… Oslo and").
  while (words.length > 1 && /^(?:and|or|then|with|the|a|an|to|for|of|in|on|at|by|from|into)$/i.test(words[words.length - 1]!.replace(/[.,;:]+$/, '')))
    words.pop();
  const title = words.join(' ').replace(/[.?!,;:]+$/, '');
  return title ? title.charAt(0).toUpperCase() + title.slice(1) : 'Learned skill';
}
