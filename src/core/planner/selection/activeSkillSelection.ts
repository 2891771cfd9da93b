import type { CancellationSignal, ChatModelPort } from '../../platform/chatTypes';
import { buildSelectionPrompt, parseSelectionAnswer } from './selectionPrompt';
import type { SelectionCandidate } from './selectionPrompt';
import { bestStandsOut, hybridNeedsModel, injectableUnconfirmed } from './hybridDecision';

/**
 * Chooses a request's active skills — the few loaded in full — from pinned skills, search
 * candidates and (mode `model` always, mode `hybrid` only when it can help: see
 * hybridDecision.ts) one short call to a model: the request's own or a smaller one.
 * Pinned skills always come first; the model fills the remaining slots; when the model fails,
 * times out, is cancelled or answers anything but the strict format, the search order does.
 */

export type SelectionMode = 'search' | 'model' | 'hybrid';
type ActiveReason = 'pinned' | 'chosen by the model' | 'best match';

interface ActiveSkill {
  name: string;
  reason: ActiveReason;
}

export interface SelectionRequest {
  mode: SelectionMode;
  task: string;
  /** Candidates in search order, best first (hybrid: at most HYBRID_CANDIDATES). */
  candidates: readonly SelectionCandidate[];
  /** Pinned names that are available to this request, in pin order. */
  pinned: readonly string[];
  maxActive: number;
  timeoutMs: number;
  /** hybrid: below this absolute relevance the best candidate is confirmed by the model (default: never). */
  askModelBelowRelevance?: number;
}

export interface SelectionDeps {
  /** The model that chooses; absent (the CLI) = the search order, with `wouldAskModel` saying whether a model would have been asked. */
  model?: ChatModelPort;
  /** Its name, for the footer (e.g. a smaller model of the request's vendor). */
  modelName?: string;
  signal: CancellationSignal;
}

export interface SelectionOutcome {
  active: ActiveSkill[];
  /** Prompt + answer tokens of the selection call (0 when the model was not asked). */
  selectionTokens: number;
  /** Why the model's choice was not used ('' when it was, or was not asked). */
  fallbackReason: string;
  askedModel: boolean;
  /** Whether the mode and candidates called for a model's choice (true whenever `askedModel`). */
  wouldAskModel: boolean;
  /** The model asked (when it was, and its name is known). */
  modelName?: string;
}

/** How many search candidates hybrid mode shows the model. */
export const HYBRID_CANDIDATES = 30;
/** Upper bound on the candidates `model` mode shows (names + descriptions of every skill, capped). */
export const MODEL_MODE_CANDIDATES = 200;
const MAX_ANSWER_CHARS = 4000;

export async function selectActiveSkills(request: SelectionRequest, deps: SelectionDeps): Promise<SelectionOutcome> {
  const pinned = [...new Set(request.pinned)].slice(0, Math.max(0, request.maxActive));
  const pinnedSet = new Set(pinned);
  const active: ActiveSkill[] = pinned.map((name) => ({ name, reason: 'pinned' }));
  const slots = request.maxActive - active.length;
  const open = request.candidates.filter((c) => !pinnedSet.has(c.name));
  const bySearch = (): ActiveSkill[] => open.slice(0, slots).map((c) => ({ name: c.name, reason: 'best match' }));
  const result = (chosen: ActiveSkill[], fields: Partial<SelectionOutcome> = {}): SelectionOutcome => ({
    active: [...active, ...chosen],
    selectionTokens: 0,
    fallbackReason: '',
    askedModel: false,
    wouldAskModel: false,
    ...fields,
  });
  if (slots <= 0 || open.length === 0) return result([]);
  if (request.mode === 'search') return result(bySearch());
  const confident = request.mode === 'hybrid' ? (request.askModelBelowRelevance ?? 0) : 0;
  // hybrid: a candidate below the confirmation threshold, or one the request's words do not
  // corroborate, is injected only when a model chose it.
  const unconfirmed = (): ActiveSkill[] =>
    open
      .filter((c) => injectableUnconfirmed(c, confident))
      .slice(0, slots)
      .map((c) => ({ name: c.name, reason: 'best match' }));
  if (request.mode === 'hybrid' && !hybridNeedsModel(open, slots, { confident })) return result(unconfirmed());
  // hybrid without the model's answer (none, a failure, a timeout): the confident candidates,
  // unless none stands out from the crowd — then the search order is chance, and none is injected.
  const fallback = (): ActiveSkill[] => (request.mode === 'hybrid' && !bestStandsOut(open) ? [] : unconfirmed());
  if (!deps.model) return result(fallback(), { wouldAskModel: true });
  const model = deps.model;
  const asked = { askedModel: true, wouldAskModel: true, ...(deps.modelName ? { modelName: deps.modelName } : {}) };

  const prompt = buildSelectionPrompt(request.task, open, slots);
  let answer = '';
  let failure = '';
  const timedOut = { value: false };
  const signal: CancellationSignal = {
    get isCancelled() {
      return deps.signal.isCancelled || timedOut.value;
    },
  };
  try {
    answer = await withTimeout(collectText(model, prompt, signal), request.timeoutMs, () => (timedOut.value = true));
  } catch (error) {
    failure = timedOut.value
      ? `the model did not answer within ${request.timeoutMs} ms`
      : `the model call failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (!failure && deps.signal.isCancelled) failure = 'the request was cancelled';
  const tokens = await countQuietly(model, prompt, answer);
  if (failure) return result(fallback(), { ...asked, selectionTokens: tokens, fallbackReason: failure });
  const parsed = parseSelectionAnswer(
    answer,
    open.map((c) => c.name),
    slots,
  );
  if (!parsed.ok) return result(fallback(), { ...asked, selectionTokens: tokens, fallbackReason: parsed.reason });
  return result(
    parsed.names.map((name) => ({ name, reason: 'chosen by the model' })),
    { ...asked, selectionTokens: tokens },
  );
}

async function collectText(model: ChatModelPort, prompt: string, signal: CancellationSignal): Promise<string> {
  let text = '';
  for await (const part of model.send([{ role: 'user', parts: [{ kind: 'text', text: prompt }] }], [], signal)) {
    if (signal.isCancelled) break;
    if (part.kind === 'text') text += part.text;
    // A rambling answer is already a failed one; stop reading it.
    if (text.length > MAX_ANSWER_CHARS) break;
  }
  return text;
}

function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout();
      reject(new Error('timeout'));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

async function countQuietly(model: ChatModelPort, prompt: string, answer: string): Promise<number> {
  try {
    return (await model.countTokens(prompt)) + (answer ? await model.countTokens(answer) : 0);
  } catch {
    return 0;
  }
}
