import type { TokenReport } from './plannerLoop';

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
}

const number = (value: number) => value.toLocaleString('en-US');

/** The footer's lines (each a complete italic Markdown sentence), in display order. */
export function responseFooterLines(input: FooterInput): string[] {
  const lines: string[] = [];
  if (input.stoppedBecause === 'maxRounds') {
    lines.push(`_Stopped after ${input.maxRounds} rounds (setting \`toolshed.toolSearch.maxRounds\`)._`);
  }
  const saving = toolSavingLine(input.tokens);
  if (saving && input.stoppedBecause !== 'cancelled') lines.push(saving);
  if (input.deferral && input.stoppedBecause !== 'cancelled') lines.push(`_Tool search: ${input.deferral}._`);
  const preActivated = input.tokens.preActivatedTools?.length ?? 0;
  if (preActivated > 0 && input.stoppedBecause !== 'cancelled') {
    lines.push(`_Pre-activated ${preActivated} ${preActivated === 1 ? 'tool' : 'tools'} named by the skills before the first round, so the model did not have to search for ${preActivated === 1 ? 'it' : 'them'} (setting \`toolshed.learning.autoActivateTools\`)._`);
  }
  if (input.tokens.selectionTokens > 0 && input.stoppedBecause !== 'cancelled') {
    lines.push(`_Choosing the active skills cost ${number(input.tokens.selectionTokens)} tokens (setting \`toolshed.skills.selection\`)._`);
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
export function toolSavingLine(tokens: TokenReport): string | undefined {
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

/** Footer sentences this module writes, recognised at the start of a line. */
const FOOTER_LINE = /^_(?:Toolshed sent |Stopped after \d+ rounds |Tool search: |Choosing the active skills cost |Pre-activated \d+ tools? named by the skills ).*_\s*$/;

/** An answer's Markdown without the footer lines (for history recorded before answers were kept apart). */
export function withoutFooter(markdown: string): string {
  return markdown.split('\n').filter((line) => !FOOTER_LINE.test(line.trim())).join('\n').replace(/\n{3,}/g, '\n\n');
}
