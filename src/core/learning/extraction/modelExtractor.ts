import { z } from 'zod';
import type { ChatModelPort } from '../../platform/chatTypes';
import { skillFieldsShape } from '../../skills/skillSchema';
import { depersonalize } from './depersonalize';
import type { PersonalContext } from './depersonalize';
import { sourceHash } from './learnedCandidate';
import type { LearnedCandidate } from './learnedCandidate';
import type { CandidateExtractor } from '../learningService';
import { argumentShape } from './trajectory';
import type { Trajectory } from './trajectory';

/**
 * The `model` extractor (setting `toolshed.learning.extractor: model`): the turn's own chat model
 * is asked once, with a fixed prompt over the *sanitized* trajectory, for strict JSON; the answer
 * is validated with the skill schema's own field rules (2–8 imperative steps) and depersonalized
 * again. Anything else — garbage, a timeout, cancellation — yields `undefined` or throws, and the
 * learning service keeps the `trace` proposal. Name, task type and citations stay the trace's.
 */

const MODEL_EXTRACTION_TIMEOUT_MS = 20_000;

const modelAnswerSchema = z
  .object({
    title: skillFieldsShape.title.unwrap().min(3),
    trigger: skillFieldsShape.trigger.unwrap().min(10),
    steps: z.array(z.string().trim().min(8).max(300)).min(2).max(8),
    failure_modes: z.array(z.string().trim().min(5).max(300)).max(5).optional(),
    tags: z.array(z.string().trim().min(2).max(40)).max(12).optional(),
  })
  .strict();

const NOT_IMPERATIVE = /^(?:i|we|you|the|this|that|it|they|he|she|a|an|my|our|first|then|next|finally|step)\b/i;

export function extractionPrompt(trajectory: Trajectory): string {
  const calls = trajectory.calls.map(
    (call, i) => `${i + 1}. ${call.tool}(${argumentShape(call.input).join(', ')}) → ${call.ok ? 'ok' : `error: ${call.error ?? ''}`}`,
  );
  return [
    'Write a reusable skill (a short procedure) from this successful tool-using turn.',
    'Answer with ONE JSON object and nothing else: {"title": string, "trigger": string, "steps": string[], "failure_modes"?: string[], "tags"?: string[]}.',
    'Rules: 2 to 8 steps; each step one imperative sentence starting with a verb; name tools exactly; never include values',
    'from this conversation (names, ids, paths, numbers, text the user typed) — describe what to pass, not what was passed.',
    '',
    `Request: ${trajectory.request}`,
    'Tool calls (argument names only):',
    ...calls,
  ].join('\n');
}

/** Parses and validates the model's answer; `undefined` for anything that is not a valid skill. */
function parseModelAnswer(text: string, fallback: LearnedCandidate, personal: PersonalContext): LearnedCandidate | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  const parsed = modelAnswerSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const clean = (value: string) => depersonalize(value.replace(/\s+/g, ' ').trim(), personal);
  const steps = parsed.data.steps.map(clean);
  if (steps.some((step) => NOT_IMPERATIVE.test(step))) return undefined;
  const trigger = clean(parsed.data.trigger);
  return {
    ...fallback,
    title: clean(parsed.data.title),
    trigger,
    steps,
    failure_modes: (parsed.data.failure_modes ?? fallback.failure_modes).map(clean),
    tags: [...new Set([...(parsed.data.tags ?? []).map((t) => clean(t).toLowerCase()), ...fallback.tags])].slice(0, 12),
    source_hash: sourceHash(trigger, steps, fallback.task_type),
  };
}

/** A CandidateExtractor over a chat model, bounded by a timeout and the caller's cancellation. */
export function createModelExtractor(
  model: ChatModelPort,
  options: { personal: () => PersonalContext; timeoutMs?: number; isCancelled?: () => boolean },
): CandidateExtractor {
  return async (trajectory, fallback) => {
    let timedOut = false;
    const signal = {
      get isCancelled() {
        return timedOut || (options.isCancelled?.() ?? false);
      },
    };
    const ask = (async () => {
      let text = '';
      for await (const part of model.send([{ role: 'user', parts: [{ kind: 'text', text: extractionPrompt(trajectory) }] }], [], signal)) {
        if (signal.isCancelled) break;
        if (part.kind === 'text') text += part.text;
        if (text.length > 20_000) break;
      }
      if (signal.isCancelled) throw new Error(timedOut ? 'timed out' : 'cancelled');
      return parseModelAnswer(text, fallback, options.personal());
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new Error('timed out'));
      }, options.timeoutMs ?? MODEL_EXTRACTION_TIMEOUT_MS);
    });
    try {
      return await Promise.race([ask, timeout]);
    } finally {
      clearTimeout(timer);
      ask.catch(() => undefined);
    }
  };
}
