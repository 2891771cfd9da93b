/** Prompt blocks from the RFC's Appendix A, plus Toolshed's framing for the @toolshed participant. */

export const TOOL_DISCOVERY_BLOCK = `<tool_discovery>
You can discover additional tools using \`tool_search\`.
- Describe the capability you need.
- Use the returned tool name to call it.
Only tools permitted for this request will appear.
</tool_discovery>`;

export const SKILL_DISCOVERY_BLOCK = `<skill_discovery>
You can discover and fetch skills:
- Use \`skill_search\` to find skills by capability (returns skill names).
- Use \`skill_get\` with a skill name for the full playbook.
</skill_discovery>`;

export const PARTICIPANT_PREAMBLE = `You are Toolshed, an assistant inside VS Code. Most tools are deferred: they are not listed
until you find them. When you need a capability you do not see, call tool_search first, then
call the tool it returns. Follow the team's skills when they apply.`;

/** Joins non-empty blocks with blank lines. */
export function joinBlocks(blocks: Array<string | undefined>): string {
  return blocks.filter((block): block is string => !!block && block.trim().length > 0).join('\n\n');
}
