import { explainTurnMarkdown, skillsSection } from '../../planner/turn/explainMarkdown';
import type { StoredDoorDecision } from './doorDecision';

const DOOR_TITLES: Record<string, string> = {
  hook: 'the prompt-submit hook',
  mcp: 'the MCP server',
  chat: 'the @toolshed participant',
};

const code = (name: string) => `\`${name.replace(/`/g, '')}\``;

/**
 * A door's last decision as Markdown (`toolshed why`): the door and runtime, the request, each
 * candidate with the gate's verdict — rendered by the same sections as `/why` and Explain Last
 * Turn, so a reason is worded in one place — and what the model was handed.
 */
export function explainDoorDecisionMarkdown(decision: StoredDoorDecision): string {
  if (decision.door === 'chat' && decision.turn) return `${explainTurnMarkdown(decision.turn)}\n\n_Recorded ${new Date(decision.at).toISOString()}._`;
  const lines = [
    `**Why ${DOOR_TITLES[decision.door] ?? decision.door} (${decision.runtime}) did what it did** — ${decision.action} at ${new Date(decision.at).toISOString()}`,
    '',
    `Request: "${decision.request}"`,
    '',
  ];
  if (decision.skills) lines.push(...skillsSection(decision.skills), '');
  lines.push(
    decision.injected.length
      ? `Handed to the model: ${decision.injected.map(code).join(', ')}${decision.tokens ? ` (${decision.tokens.toLocaleString('en-US')} tokens)` : ''}.`
      : decision.offered?.length
        ? 'No skill text was handed to the model.'
        : 'Nothing was handed to the model.',
  );
  if (decision.offered?.length) lines.push(`Offered by name and description, for the model to load if one fits: ${decision.offered.map(code).join(', ')}.`);
  if (decision.note) lines.push('', decision.note);
  return lines.join('\n');
}
