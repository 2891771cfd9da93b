import type { PreflightSkills } from '../planner/plannerPorts';
import { bestStandsOut } from '../planner/selection/hybridDecision';
import { MCP_READ_SKILL_TOOL_NAME } from '../platform/toolNames';
import { renderPromptBlock } from '../privacy/promptBlocks';
import { redact } from '../privacy/redaction';

/** The longest description an offer shows (one line; the skill itself has the rest). */
const MAX_DESCRIPTION_CHARS = 240;

/**
 * When a door offers anything: the best of the gate's candidates reaches OFFER_MIN_RELEVANCE (the
 * request's floor, not each offer's). Before offers had to be corroborated by the request's words
 * (below), this floor was the only brake, and no floor met both targets on either half of the
 * skills-at-scale requests (the curve is in docs/benchmarks.md, "Reach"). With corroboration,
 * floors from the gate's own minimum to 0.28 gave the same result on the tuning half (odd ids,
 * 10,000 skills, `bench/tuneOffers.ts`); 0.32 cost two one-skill tasks and took nothing from the
 * no-skill requests, so the floor was the gate's minimum. With the 120 blind-written requests in
 * the tuning half (82 one-skill tasks, 78 no-skill requests), word counts and floors were chosen
 * together, for the most room under both targets (≥ 60 % reached, ≤ 10 % of no-skill requests
 * given a skill): 0.28 kept every task the gate's minimum reached (54 of 82) and took one
 * no-skill request of five; 0.30 cost a task, 0.32 three, for none more.
 */
const OFFER_MIN_RELEVANCE = 0.28;
const MAX_OFFERED = 2;

/** Gate verdicts an offer may have: passed, or cleared the absolute minimum and was held back only by the relative cut or the cap. */
const OFFERABLE: ReadonlySet<string> = new Set(['relativeCut', 'cap']);

/**
 * The skills a door *offers* rather than injects: named with their one-line descriptions for the
 * runtime's model, which loads the one that fits — with its own skill tool, or Toolshed's
 * `read_skill` — or ignores them. In `@toolshed`, candidates the gate is unsure of are put to a
 * model; a door has no model of its own, but the runtime's model reads the prompt next. So the
 * first `MAX_OFFERED` candidates in search order that were not injected are offered: every
 * candidate that cleared the gate's absolute minimum, also one held back by the relative cut or
 * the cap, and also beside a confident injection — when the request's words corroborate it (its
 * describing fields share several of them: `corroborated`, the same test that keeps search alone
 * from injecting, planner/selection/hybridDecision.ts). An offer reaches the model like an
 * injection does, and a request no skill serves that gets one has got a skill: on the tuning half
 * (odd ids) of the skills-at-scale requests with 10,000 skills, offers without that test went to
 * 9 of 55 such requests ("translate 'see you tomorrow' into Italian" → a language tutor sharing
 * "translate" and "Italian"; a band's tour plan → a bedtime-routine skill), with it to 3, while
 * one-skill tasks whose right skill reached the model went from 39 to 37 of 52. Those
 * two rules keep *injected text* short; an offer is one line, and the best-ranked skill is often
 * the right one when another matched more of the request's words. None is offered when a model
 * was asked (it chose), nor when no candidate stands out from the rest (`bestStandsOut`, the rule
 * that keeps hybrid selection from injecting without a model): ten skills about as relevant say
 * the request's words are generic, not that one of them applies. Nothing is injected that the
 * gate would not have injected. `minRelevance` is for the tuning bench's curve; doors use the default.
 */
export function offeredSkills(result: PreflightSkills, minRelevance = OFFER_MIN_RELEVANCE): string[] {
  const record = result.record;
  if (!record || record.model?.asked) return [];
  const eligible = record.ranked
    .filter((candidate) => !candidate.verdict || candidate.verdict.passed || OFFERABLE.has(candidate.verdict.rule))
    .map((candidate) => ({
      name: candidate.name,
      relevance: candidate.relevance ?? 1,
      passed: !candidate.verdict || candidate.verdict.passed,
      corroborated: candidate.corroborated,
    }));
  const best = eligible.reduce((top, candidate) => Math.max(top, candidate.relevance), 0);
  if (best < minRelevance || !bestStandsOut(eligible.filter((candidate) => candidate.passed))) return [];
  const injected = new Set(result.used.map((use) => use.name));
  return eligible
    .filter((candidate) => candidate.corroborated !== false && !injected.has(candidate.name))
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
