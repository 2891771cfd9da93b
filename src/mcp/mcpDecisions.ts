/**
 * What the MCP server decided for one request, as the workspace's ledger journal records a door's
 * decisions: a search and the skills it returned, or a skill (or one of its files) a model read.
 * The text is already redacted. The CLI passes a recorder when it has a workspace's journal;
 * without one nothing is recorded.
 */
export interface McpSkillDecision {
  door: 'mcp';
  action: 'search' | 'read' | 'read_file';
  /** Milliseconds since the epoch. */
  at: number;
  /** The search request (redacted); searches only. */
  query?: string;
  /** The skills returned or read, best first. */
  skills: string[];
  /** The file read (relative to the skill's folder); `read_file` only. */
  file?: string;
  /** Estimated tokens of what was handed to the model (characters / 4). */
  tokens: number;
}
