import { renderPromptBlock } from '../../privacy/promptBlocks';

/**
 * The skill-selection exchange with the request's model (agentskills progressive disclosure,
 * step 2): the model sees only names and one-line descriptions and must answer with one
 * strict JSON object. Anything else — prose, unknown names, too many, duplicates — is a
 * failed selection and the caller falls back to the search order.
 */

export interface SelectionCandidate {
  name: string;
  /** One line: what the skill does / when to use it (already redacted and tool-gated). */
  description: string;
  /** Absolute relevance to the request in [0, 1] (decides whether hybrid asks a model at all). */
  relevance?: number;
  /** False when it shares too few of the request's words to be injected without a model's confirmation (hybridDecision.ts). */
  corroborated?: false;
}

const MAX_DESCRIPTION_CHARS = 200;
const MAX_TASK_CHARS = 2000;

export function buildSelectionPrompt(task: string, candidates: readonly SelectionCandidate[], maxActive: number): string {
  const lines = candidates.map((c) => `- ${c.name}: ${oneLine(c.description, MAX_DESCRIPTION_CHARS)}`);
  return [
    'You choose which skills (team procedures) apply to a request. Do not answer the request itself.',
    `Pick at most ${maxActive} skill${maxActive === 1 ? '' : 's'} from this list that clearly help with the request, most useful first; pick none if none applies.`,
    renderPromptBlock('skills', lines),
    renderPromptBlock('request', [oneLine(task, MAX_TASK_CHARS)]),
    'Answer with exactly one JSON object and nothing else: {"skills": ["name", ...]} using names from the list.',
  ].join('\n');
}

export type SelectionAnswer = { ok: true; names: string[] } | { ok: false; reason: string };

/** Parses the model's answer strictly (whitespace and one ```json fence are tolerated). */
export function parseSelectionAnswer(text: string, candidateNames: readonly string[], maxActive: number): SelectionAnswer {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/.exec(trimmed);
  const body = (fenced ? fenced[1] : trimmed).trim();
  if (!body.startsWith('{') || !body.endsWith('}')) return { ok: false, reason: 'the answer is not a JSON object' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'the answer is not valid JSON' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, reason: 'the answer is not a JSON object' };
  const keys = Object.keys(parsed);
  const skills = (parsed as { skills?: unknown }).skills;
  if (keys.length !== 1 || !Array.isArray(skills)) return { ok: false, reason: 'the answer must be {"skills": [...]}' };
  if (!skills.every((name): name is string => typeof name === 'string')) return { ok: false, reason: 'skill names must be strings' };
  if (skills.length > maxActive) return { ok: false, reason: `the answer picks ${skills.length} skills; at most ${maxActive} are allowed` };
  if (new Set(skills).size !== skills.length) return { ok: false, reason: 'the answer repeats a skill' };
  const known = new Set(candidateNames);
  const unknown = skills.filter((name) => !known.has(name));
  if (unknown.length) return { ok: false, reason: `the answer names skills that were not offered (${unknown.length})` };
  return { ok: true, names: skills };
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}
