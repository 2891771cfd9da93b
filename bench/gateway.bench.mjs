// @ts-check
// The MCP gateway over the real MCP catalog (bench/data/mcp-catalog): bundles bench/gatewayBench.ts
// (the gateway users run: its search and call tools, upstream MCP server processes, and
// `dist/cli.js mcp --upstream` for the forwarded-call latency) and runs it. Prints one JSON line
// last: {"title": "...", "rows": [...]}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('gatewayBench.ts');
