import type { PreflightSkills } from '../planner/plannerPorts';
import { MCP_READ_SKILL_TOOL_NAME } from '../platform/toolNames';
import { renderPromptBlock } from '../privacy/promptBlocks';
import { redact } from '../privacy/redaction';

/** The longest description an offer shows (one line; the skill itself has the rest). */
const MAX_DESCRIPTION_CHARS = 240;

/**
 * The skills a door *offers* rather than injects. In `@toolshed`, a candidate that passed the
 * gate but is not confident enough to inject on its own (below `askModelBelowRelevance`) is put
 * to a model, which picks among them. A door has no model of its own, but the runtime's model
 * reads the prompt next: so those candidates (the very list the selection model would be shown,
 * at most `limit`) are named with their descriptions, and that model loads the one that fits —
 * with its own skill tool, or Toolshed's `read_skill` — or ignores them. Nothing is injected that
 * the gate would not have injected; the offer costs a line per skill.
 */
export function offeredSkills(result: PreflightSkills, limit: number): string[] {
  const record = result.record;
  if (!record?.model?.wouldAsk || record.model.asked || limit <= 0) return [];
  const injected = new Set(result.used.map((use) => use.name));
  return (record.offered ?? []).filter((name) => !injected.has(name)).slice(0, limit);
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
