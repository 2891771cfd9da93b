import type { PreflightSkills } from '../planner/plannerPorts';
import { bestStandsOut } from '../planner/selection/hybridDecision';
import { MCP_READ_SKILL_TOOL_NAME } from '../platform/toolNames';
import { renderPromptBlock } from '../privacy/promptBlocks';
import { redact } from '../privacy/redaction';

/** The longest description an offer shows (one line; the skill itself has the rest). */
const MAX_DESCRIPTION_CHARS = 240;

/**
 * When a door offers anything: the best of the gate's candidates reaches OFFER_MIN_RELEVANCE.
 * Chosen on the tuning half (odd ids) of the skills-at-scale requests with 10,000 skills
 * (`bench/tuneOffers.ts`), at the knee of the curve between the one-skill tasks whose skill
 * reaches the model and the no-skill requests that get an offer (the curve is in
 * docs/benchmarks.md, "Reach"): at the gate's own minimum, offers reach a large share of requests
 * no skill serves. The floor is the request's (its best candidate's), not each offer's: once the
 * request clears it, the runtime's model is shown the two best that passed the gate, which on the
 * tuning half reached one more task at the same no-skill offers than a floor on each name.
 */
const OFFER_MIN_RELEVANCE = 0.32;
const MAX_OFFERED = 2;

/**
 * The skills a door *offers* rather than injects. In `@toolshed`, a candidate that passed the
 * gate but is not confident enough to inject on its own (below `askModelBelowRelevance`) is put
 * to a model, which picks among them. A door has no model of its own, but the runtime's model
 * reads the prompt next: so the best of those candidates (from the very list the selection model
 * would be shown, at most `MAX_OFFERED`, when the best reaches `OFFER_MIN_RELEVANCE`) are named
 * with their descriptions, and that model loads the one that fits — with its own skill tool, or
 * Toolshed's `read_skill` — or ignores them. None is offered when no candidate stands out from
 * the rest (`bestStandsOut`, the rule that keeps hybrid selection from injecting without a model):
 * ten skills about as relevant say the request's words are generic, not that one of them applies.
 * Nothing is injected that the gate would not have injected; the offer costs a line per skill.
 * `minRelevance` is for the tuning bench's curve; doors use the default.
 */
export function offeredSkills(result: PreflightSkills, minRelevance = OFFER_MIN_RELEVANCE): string[] {
  const record = result.record;
  if (!record?.model?.wouldAsk || record.model.asked) return [];
  const injected = new Set(result.used.map((use) => use.name));
  const relevance = new Map(record.ranked.map((candidate) => [candidate.name, candidate.relevance ?? 1]));
  const candidates = (record.offered ?? []).map((name) => ({ name, relevance: relevance.get(name) ?? 0 }));
  const best = candidates.reduce((top, candidate) => Math.max(top, candidate.relevance), 0);
  if (best < minRelevance || !bestStandsOut(candidates)) return [];
  return candidates
    .filter((candidate) => !injected.has(candidate.name))
    .slice(0, MAX_OFFERED)
    .map((candidate) => candidate.name);
}

/** The offer as a prompt block ('' for none): each name with its description, redacted and on one line. */
export function offeredSkillsBlock(names: readonly string[], describe: (name: string) => string | undefined): string {
  if (names.length === 0) return '';
  const lines = names.map((name) => {
    const description = redact((describe(name) ?? '').replace(/\s+/g, ' ').trim());
    const short = description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : description;
    return `- ${redact(name)}${short ? `: ${short}` : ''}`;
  });
  return renderPromptBlock('skill_directory', [
    `Skills that may apply to this request (not loaded: if one fits, load it with your skill tool or ${MCP_READ_SKILL_TOOL_NAME} before you start; otherwise ignore this list):`,
    ...lines,
  ]);
}
