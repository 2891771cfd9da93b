// @ts-check
// Real MCP catalog (bench/data/mcp-catalog): bundles bench/realMcpBench.ts (the same core code the
// extension runs: tool_search and pre-activation) and runs it. Prints one JSON line last:
// {"title": "...", "rows": [...]}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('realMcpBench.ts');
