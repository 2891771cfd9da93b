// @ts-check
// Export-as-skill-pack benchmarks: bundles bench/packExportBench.ts (the same core code the extension runs) and runs it.
// Prints one JSON line last: {"title": "...", "rows": [...]}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('packExportBench.ts');
