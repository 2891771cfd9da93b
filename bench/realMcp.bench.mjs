// @ts-check
// Real MCP catalog (bench/data/mcp-catalog): bundles bench/realMcpBench.ts (the same core code the
// extension runs: tool_search and pre-activation) and runs it. Prints one JSON line last:
// {"title": "...", "rows": [...]}. Switches (e.g. `--set blind --half odd --lexical --misses`): see
// realMcpBench.ts's header.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('realMcpBench.ts', [], process.argv.slice(2));
