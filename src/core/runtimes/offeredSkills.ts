import type { PreflightSkills } from '../planner/plannerPorts';
import { MCP_READ_SKILL_TOOL_NAME } from '../platform/toolNames';
import { renderPromptBlock } from '../privacy/promptBlocks';
import { redact } from '../privacy/redaction';

/** The longest description an offer shows (one line; the skill itself has the rest). */
const MAX_DESCRIPTION_CHARS = 240;

/**
 * What an offer holds back. Chosen on the tuning half (odd ids) of the skills-at-scale requests
 * with 10,000 skills (`bench/tuneOffers.ts`), at the knee of the curve between the one-skill tasks
 * whose skill reaches the model and the no-skill requests that get an offer (the curve is in
 * docs/benchmarks.md, "Reach"): at the gate's own minimum, offers reach a large share of requests
 * no skill serves.
 */
const OFFER_MIN_RELEVANCE = 0.32;
const MAX_OFFERED = 2;

/**
 * The skills a door *offers* rather than injects. In `@toolshed`, a candidate that passed the
 * gate but is not confident enough to inject on its own (below `askModelBelowRelevance`) is put
 * to a model, which picks among them. A door has no model of its own, but the runtime's model
 * reads the prompt next: so the best of those candidates (from the very list the selection model
 * would be shown, at least `OFFER_MIN_RELEVANCE`, at most `MAX_OFFERED`) are named with their
 * descriptions, and that model loads the one that fits — with its own skill tool, or Toolshed's
 * `read_skill` — or ignores them. Nothing is injected that the gate would not have injected; the
 * offer costs a line per skill.
 */
export function offeredSkills(result: PreflightSkills): string[] {
  const record = result.record;
  if (!record?.model?.wouldAsk || record.model.asked) return [];
  const injected = new Set(result.used.map((use) => use.name));
  const relevance = new Map(record.ranked.map((candidate) => [candidate.name, candidate.relevance ?? 1]));
  return (record.offered ?? []).filter((name) => !injected.has(name) && (relevance.get(name) ?? 0) >= OFFER_MIN_RELEVANCE).slice(0, MAX_OFFERED);
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
