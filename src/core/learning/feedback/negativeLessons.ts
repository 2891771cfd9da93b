import { analyze, uniqueTerms } from '../../search/textAnalysis';
import { renderPromptBlock } from '../../privacy/promptBlocks';
import type { FailureSignature } from './failureSignature';
import { keywords, learnedSkillName, slug, sourceHash } from '../extraction/learnedCandidate';
import type { LearnedCandidate } from '../extraction/learnedCandidate';
import type { TaskType } from '../../config/settingsSchema';

/**
 * Negative skills: a failure that repeats becomes an "Avoid …" lesson. One failure
 * is noise, so a signature must be seen in at least `MIN_TURNS` separate turns (or be reported
 * explicitly). The same lesson is keyed by its signature, so proposing it again increments the
 * existing one instead of writing a second copy.
 */

export const MIN_TURNS = 2;

export interface FailureFacts {
  signature: FailureSignature;
  /** Keywords of the requests it happened in (already depersonalized). */
  keywords: string[];
  /** The step that worked instead, when a turn recovered. */
  recovery?: string;
  taskType: TaskType;
  /** An explicit note (skill_report_failure), depersonalized. */
  note?: string;
}

/** A failure report whose `tool` names no tool of this window (the message never repeats it). */
export class UnknownToolReportError extends Error {
  constructor() {
    super(
      '"tool" must be the exact name of a tool available in this conversation; nothing was proposed. Report the failure again with the name of the tool you called.',
    );
    this.name = 'UnknownToolReportError';
  }
}

export function negativeCandidate(facts: FailureFacts): LearnedCandidate {
  const { signature } = facts;
  const toolWords = keywords(signature.tool, 4);
  const classText = signature.errorClass.replace(/_/g, ' ');
  const trigger = `Before calling \`${signature.tool}\`${facts.keywords.length ? ` (${facts.keywords.slice(0, 6).join(', ')})` : ''}: it has failed repeatedly with ${classText}.`;
  const steps = [
    `Avoid calling \`${signature.tool}\` the same way again: it failed with "${signature.message}".`,
    facts.recovery
      ? `What worked instead: ${facts.recovery.charAt(0).toLowerCase()}${facts.recovery.slice(1)}`
      : 'Check its preconditions first, or tell the user why it cannot be done.',
  ];
  if (facts.note) steps.push(`Reported: ${facts.note}`);
  return {
    kind: 'negative',
    name: learnedSkillName(facts.taskType, `avoid-${slug([...toolWords, ...classText.split(' ')], 56)}`),
    title: `Avoid: ${signature.tool} fails with ${classText}`,
    trigger,
    task_type: facts.taskType,
    tags: [...new Set([...toolWords, ...facts.keywords])].slice(0, 12),
    steps,
    failure_modes: [],
    citations: { tools: [signature.tool], files: [] },
    // Keyed by the signature alone: the same failure is the same lesson, whatever words came with it.
    source_hash: sourceHash(`negative:${signature.key}`, [], 'unknown'),
  };
}

/**
 * Whether a lesson concerns a request: one of its tool's own words, or two of its keywords,
 * appear in the request (analysed terms, so "deploying" meets "deploy").
 */
export function isRelevantWarning(
  request: string,
  lesson: Pick<LearnedCandidate, 'tags' | 'citations'>,
  offeredTools: ReadonlySet<string> = new Set(),
): boolean {
  if (lesson.citations.tools.some((tool) => offeredTools.has(tool))) return true;
  const wanted = new Set(uniqueTerms(request));
  const toolTerms = new Set(lesson.citations.tools.flatMap((tool) => analyze(tool)).filter((t) => t !== 'fixtur'));
  if ([...toolTerms].some((term) => wanted.has(term))) return true;
  const tagTerms = new Set(lesson.tags.flatMap((tag) => analyze(tag)));
  let overlap = 0;
  for (const term of tagTerms) if (wanted.has(term)) overlap++;
  return overlap >= 2;
}

/** The `<skill_warnings>` block: approved lessons, clearly labelled as warnings, not procedures. */
export function renderWarnings(lessons: ReadonlyArray<Pick<LearnedCandidate, 'name' | 'title' | 'steps'>>): string {
  if (lessons.length === 0) return '';
  const body = lessons.map((lesson) => [`- ${lesson.title} (\`${lesson.name}\`)`, ...lesson.steps.map((step) => `  - ${step}`)].join('\n'));
  return renderPromptBlock('skill_warnings', ['Lessons learned from earlier failures in this workspace. They are warnings, not steps to follow:', ...body]);
}
