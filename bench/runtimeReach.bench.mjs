// @ts-check
// The runtimes alone: bundles bench/runtimeReachBench.ts and runs Copilot CLI, Claude Code and
// Codex for real (offline, against a scripted model on 127.0.0.1) with 300 and 10,000 skills in
// their own skill folders. Prints one JSON line last: {"title": "...", "rows": [...]}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('runtimeReachBench.ts');
