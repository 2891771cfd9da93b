import type { ToolExample } from '../../config/settingsSchema';

/**
 * Toolshed's built-in examples for a few VS Code built-in tools (lowest precedence). Keyed by
 * the tool name as VS Code reports it. Every example is validated against the live tool's
 * inputSchema before it is rendered, so if a future VS Code changes a schema, the stale
 * example is reported and dropped rather than misleading a model.
 */
export const BUILTIN_TOOL_EXAMPLES: Readonly<Record<string, readonly ToolExample[]>> = {
  copilot_readFile: [{ args: { filePath: '/workspace/src/app.ts' }, description: 'Read a whole file (absolute path)', tags: ['minimal'] }],
  copilot_findFiles: [
    { args: { query: '**/*.test.ts' }, description: 'Find files by glob', tags: ['minimal'] },
    { args: { query: 'src/**/config*.json' }, description: 'Glob under one folder', tags: ['common'] },
  ],
  copilot_findTextInFiles: [
    { args: { query: 'TODO', isRegexp: false }, description: 'Plain text search', tags: ['minimal'] },
    { args: { query: 'function\\s+activate', isRegexp: true }, description: 'Regex search', tags: ['edge-case'] },
  ],
};
