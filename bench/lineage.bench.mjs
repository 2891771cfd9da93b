// @ts-check
// Merge-with-lineage and snapshot benchmarks: bundles bench/lineageBench.ts (the same core code the extension runs) and runs it.
// Prints one JSON line last: {"title": "...", "rows": [...]}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('lineageBench.ts');
