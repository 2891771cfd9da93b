import type { TokenReport } from './plannerLoop';
import { escapeForLine } from '../platform/lineText';

/**
 * The lines @toolshed appends under an answer: why the loop stopped early and what the tool
 * definitions cost. One pure function so every feature that reports on a turn (tool-search
 * modes, skill selection, …) adds its line here instead of streaming its own.
 */
export interface FooterInput {
  tokens: TokenReport;
  stoppedBecause: 'done' | 'maxRounds' | 'cancelled';
  /** The round cap in force (named in the "stopped" line). */
  maxRounds: number;
  /** How this turn sent or deferred tools (toolshed.toolSearch.mode), e.g. "212 tools, 31k tokens = 24 % of 128k: deferred". */
  deferral?: string;
  /** The embedding endpoint failed during this turn (what went wrong): its searches were lexical. */
  embeddingFailure?: string;
}

const number = (value: number) => value.toLocaleString('en-US');

/** An error text as plain words inside the footer's italic line (one line, no Markdown of its own). */
const escapeMarkdown = (text: string) => escapeForLine(text).replace(/[`*_[\]<>]/g, '\\$&');

/** The footer's lines (each a complete italic Markdown sentence), in display order. */
export function responseFooterLines(input: FooterInput): string[] {
  const lines: string[] = [];
  if (input.stoppedBecause === 'maxRounds') {
    lines.push(`_Stopped after ${input.maxRounds} rounds (setting \`toolshed.toolSearch.maxRounds\`)._`);
  }
  const saving = toolSavingLine(input.tokens);
  if (saving && input.stoppedBecause !== 'cancelled') lines.push(saving);
  if (input.deferral && input.stoppedBecause !== 'cancelled') lines.push(`_Tool search: ${input.deferral}._`);
  const matched = requestMatchLine(input.tokens);
  if (matched && input.stoppedBecause !== 'cancelled') lines.push(matched);
  const preActivated = preActivationLine(input.tokens);
  if (preActivated && input.stoppedBecause !== 'cancelled') lines.push(preActivated);
  if (input.tokens.selectionTokens > 0 && input.stoppedBecause !== 'cancelled') {
    const by = input.tokens.selectionModel ? ` with ${input.tokens.selectionModel}` : '';
    lines.push(`_Choosing the active skills${by} cost ${number(input.tokens.selectionTokens)} tokens (setting \`toolshed.skills.selection\`)._`);
  }
  if (input.stoppedBecause !== 'cancelled') lines.push(modelRequestsLine(input.tokens));
  if (input.embeddingFailure) {
    lines.push(`_The embedding endpoint failed (${escapeMarkdown(input.embeddingFailure)}): this turn's tool and skill search was lexical._`);
  }
  return lines;
}

/** The footer as one Markdown block ('' when there is nothing to say). */
export function responseFooter(input: FooterInput): string {
  const lines = responseFooterLines(input);
  return lines.length ? `\n\n${lines.join('\n\n')}` : '';
}

/**
 * What deferral saved, summed over every round: the tool definitions each round actually sent
 * versus sending all usable tools in each of those rounds. Undefined when nothing was deferred.
 */
function toolSavingLine(tokens: TokenReport): string | undefined {
  const rounds = tokens.perRound.length;
  if (rounds === 0 || tokens.toolsAvailable * rounds <= tokens.toolsSent) return undefined;
  const all = tokens.allToolDefinitionTokens;
  const percent = all > 0 ? Math.round(((all - tokens.toolDefinitionTokens) / all) * 100) : 0;
  if (rounds === 1) {
    return `_Toolshed sent ${tokens.toolsSent} of ${tokens.toolsAvailable} tools: ${number(tokens.toolDefinitionTokens)} tokens of tool definitions instead of ${number(all)} (${percent}% fewer)._`;
  }
  const sent = tokens.perRound.map((round) => round.tools).join(' + ');
  return `_Toolshed sent ${sent} of ${tokens.toolsAvailable} tools over ${rounds} rounds: ${number(tokens.toolDefinitionTokens)} tokens of tool definitions instead of ${number(all)} for all ${tokens.toolsAvailable} in every round (${percent}% fewer)._`;
}

/**
 * Tools from skills: how many tools the skills pre-activated and, only when
 * the run measured one (planner/searchSavings.ts), the saving: the pre-activated tools the model
 * called before any `tool_search` returned them spared it one `tool_search` round, whose call and
 * result (the smallest `select:` search for them) would have cost ≈ `searchSaving.tokens`.
 */
export function preActivationLine(tokens: TokenReport): string | undefined {
  const count = tokens.preActivatedTools?.length ?? 0;
  if (count === 0) return undefined;
  const base = `Pre-activated ${count} ${count === 1 ? 'tool' : 'tools'} named by the skills before the first round (setting \`toolshed.learning.autoActivateTools\`).`;
  const saving = tokens.searchSaving;
  if (!saving || saving.tools.length === 0) return `_${base}_`;
  const names = saving.tools.map((name) => `\`${name}\``).join(', ');
  const them = saving.tools.length === 1 ? 'it' : 'them';
  return `_${base} The model called ${names} before any \`tool_search\` found ${them}: that saved 1 \`tool_search\` round (≈ ${number(saving.tokens)} tokens of search call and result)._`;
}

/**
 * Every model request of the turn: the skill-selection request when one was made, and each
 * round (a round is one request, whether it ended in tool calls or the answer).
 */
export function modelRequestsLine(tokens: TokenReport): string {
  const selection = tokens.selectionRequests ?? 0;
  const rounds = tokens.perRound.length;
  const roundsText = `${rounds} ${rounds === 1 ? 'round' : 'rounds'}`;
  const parts = selection > 0 ? `${selection} to choose the active skills, ${roundsText}` : roundsText;
  return `_Model requests: ${selection + rounds} (${parts})._`;
}

/** Tools activated before round 1 because they matched the request, with their relevance. */
function requestMatchLine(tokens: TokenReport): string | undefined {
  const matched = tokens.requestMatchedTools ?? [];
  if (matched.length === 0) return undefined;
  const names = matched.map((tool) => `\`${tool.name}\` (${tool.relevance.toFixed(2)})`).join(', ');
  return `_Activated ${matched.length} ${matched.length === 1 ? 'tool' : 'tools'} matching your request before the first round: ${names} (setting \`toolshed.toolSearch.preActivateTools\`)._`;
}

/** Footer sentences this module writes, recognised at the start of a line. */
const FOOTER_LINE =
  /^_(?:Toolshed sent |Stopped after \d+ rounds |Tool search: |Choosing the active skills (?:with .+ )?cost |Pre-activated \d+ tools? named by the skills |Model requests: \d+ |Activated \d+ tools? matching your request |Visible without a search because ).*_\s*$/;

/** An answer's Markdown without the footer lines (for history recorded before answers were kept apart). */
export function withoutFooter(markdown: string): string {
  return markdown
    .split('\n')
    .filter((line) => !FOOTER_LINE.test(line.trim()))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}
