/**
 * The names models see for Toolshed's own tools. They are part of the model-facing contract
 * (package.json's `languageModelTools`, the settings defaults, prompts and recorded events), so
 * every layer reads them from here: platform is the bottom layer and anyone may import it.
 */

export const TOOL_SEARCH_TOOL_NAME = 'tool_search';
export const TOOL_INVOKE_TOOL_NAME = 'tool_invoke';
export const SKILL_SEARCH_TOOL_NAME = 'skill_search';
export const SKILL_GET_TOOL_NAME = 'skill_get';
export const SKILL_LIST_TOOL_NAME = 'skill_list';
/** The single `skill` tool (toolStyle `single` | `both`). */
export const SKILL_TOOL_NAME = 'skill';
export const SKILL_REPORT_OUTCOME_TOOL_NAME = 'skill_report_outcome';
export const SKILL_REPORT_FAILURE_TOOL_NAME = 'skill_report_failure';

/** The three skill discovery tools (toolStyle `discovery` | `both`). */
export const SKILL_DISCOVERY_TOOL_NAMES = [SKILL_SEARCH_TOOL_NAME, SKILL_GET_TOOL_NAME, SKILL_LIST_TOOL_NAME] as const;

/** Toolshed's discovery tools; they stay visible so a model can always discover the rest. */
export const TOOLSHED_DISCOVERY_TOOL_NAMES = [TOOL_SEARCH_TOOL_NAME, TOOL_INVOKE_TOOL_NAME, ...SKILL_DISCOVERY_TOOL_NAMES, SKILL_TOOL_NAME] as const;
/** Every tool Toolshed contributes (the learning report tools are found with tool_search like any other). */
export const TOOLSHED_TOOL_NAMES = [...TOOLSHED_DISCOVERY_TOOL_NAMES, SKILL_REPORT_OUTCOME_TOOL_NAME, SKILL_REPORT_FAILURE_TOOL_NAME] as const;

/**
 * The skill tools of Toolshed's MCP server (`toolshed mcp`), in the order of progressive
 * disclosure: find by description, then read a skill's body, then one of its files. An agent
 * runtime may show them beside its own `skill` / `tool_search` / `tool_search_tool` and, in VS
 * Code, beside Toolshed's language-model tools above, so none may reuse one of those names
 * (a unit test checks it against RUNTIME_TOOL_NAMES and TOOLSHED_TOOL_NAMES).
 */
export const MCP_SEARCH_SKILLS_TOOL_NAME = 'search_skills';
export const MCP_READ_SKILL_TOOL_NAME = 'read_skill';
export const MCP_READ_SKILL_FILE_TOOL_NAME = 'read_skill_file';
export const MCP_SKILL_TOOL_NAMES = [MCP_SEARCH_SKILLS_TOOL_NAME, MCP_READ_SKILL_TOOL_NAME, MCP_READ_SKILL_FILE_TOOL_NAME] as const;

/** Tool names the agent runtimes give their own tools (Copilot CLI, Claude Code, Codex), which an MCP server must not take. */
export const RUNTIME_TOOL_NAMES = ['skill', 'tool_search', 'tool_search_tool'] as const;

/**
 * The MCP gateway's own tools (`toolshed mcp --upstream`). They sit beside the runtimes' own
 * search tools (`tool_search`, `tool_search_tool`, `skill`) in one request, so their names must
 * differ from those and from Toolshed's chat tools; the gateway's upstream tools are all named
 * `mcp_<server>_<tool>` and cannot take these names either.
 */
export const GATEWAY_FIND_TOOL_NAME = 'find_tools';
export const GATEWAY_CALL_TOOL_NAME = 'call_tool';
export const GATEWAY_TOOL_NAMES = [GATEWAY_FIND_TOOL_NAME, GATEWAY_CALL_TOOL_NAME] as const;
