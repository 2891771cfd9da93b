import { depersonalize, mentionedFiles } from './depersonalize';
import type { PersonalContext } from './depersonalize';
import { errorClassOf, normalizeErrorMessage } from '../feedback/failureSignature';
import { inferTaskType, keywords, learnedSkillName, MAX_STEPS, slug, sourceHash, titleOf } from './learnedCandidate';
import type { LearnedCandidate } from './learnedCandidate';
import { argumentShape, isLearnable } from './trajectory';
import type { Trajectory, TrajectoryCall } from './trajectory';

/**
 * The `trace` extractor (no model call): request → trigger; successful calls in
 * order with the *names* of their argument fields → steps; an error the turn recovered from →
 * failure mode; tools → citations; task type from tools and words. Deterministic: the same
 * trajectory always gives the same candidate. Values of arguments never reach the output.
 */
export function extractTraceCandidate(trajectory: Trajectory, personal: PersonalContext): LearnedCandidate | undefined {
  if (!isLearnable(trajectory)) return undefined;
  const request = oneLine(depersonalize(trajectory.request, personal)).slice(0, 300);
  const successful = trajectory.calls.filter((call) => call.ok);
  const tools = [...new Set(successful.map((call) => call.tool))];
  const steps = stepsOf(successful);
  const failureModes = recoveredFailures(trajectory.calls, personal);
  const taskType = inferTaskType(tools, request);
  const trigger = request || `Use ${tools.join(', ')} together.`;
  const words = keywords(request, 8);
  const toolWords = keywords(tools.join(' '), 8);
  const tags = [...new Set([...toolWords, ...words])].slice(0, 12);
  return {
    kind: 'positive',
    name: learnedSkillName(taskType, slug(words.length >= 2 ? words.slice(0, 5) : [...toolWords, ...words].slice(0, 5))),
    title: titleOf(request || tools.join(' then ')),
    trigger,
    task_type: taskType,
    tags,
    steps,
    failure_modes: failureModes,
    citations: { tools, files: mentionedFiles(request) },
    source_hash: sourceHash(trigger, steps, taskType),
  };
}

export function stepOf(call: TrajectoryCall): string {
  const fields = argumentShape(call.input);
  return fields.length ? `Call \`${call.tool}\` with ${fields.map((f) => `\`${f}\``).join(', ')}.` : `Call \`${call.tool}\`.`;
}

/** One step per call; consecutive calls of the same tool with the same shape become one step. */
function stepsOf(calls: readonly TrajectoryCall[]): string[] {
  const steps: string[] = [];
  let previous = '';
  let repeated = false;
  for (const call of calls) {
    const step = stepOf(call);
    if (step === previous) {
      if (!repeated) steps[steps.length - 1] = `${step.slice(0, -1)} (repeat for each item).`;
      repeated = true;
      continue;
    }
    previous = step;
    repeated = false;
    steps.push(step);
  }
  if (steps.length <= MAX_STEPS) return steps;
  return [
    ...steps.slice(0, MAX_STEPS - 1),
    `Then: ${steps
      .slice(MAX_STEPS - 1)
      .map((s) => s.replace(/^Call /, '').replace(/\.$/, ''))
      .join('; ')}.`,
  ];
}

/** Failed calls followed by a later success: what went wrong and what worked instead. */
function recoveredFailures(calls: readonly TrajectoryCall[], personal: PersonalContext): string[] {
  const modes: string[] = [];
  calls.forEach((call, i) => {
    if (call.ok) return;
    const recovery = calls.slice(i + 1).find((later) => later.ok);
    if (!recovery) return;
    const message = normalizeErrorMessage(depersonalize(call.error ?? 'failed', personal));
    modes.push(
      `\`${call.tool}\` may fail (${errorClassOf(call.error ?? '')}: ${message}); then ${stepOf(recovery).charAt(0).toLowerCase()}${stepOf(recovery).slice(1)}`,
    );
  });
  return [...new Set(modes)].slice(0, 4);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
