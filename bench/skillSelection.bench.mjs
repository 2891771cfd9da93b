// @ts-check
// Active-skill selection benchmark: bundles bench/skillSelectionBench.ts (the same core code the extension runs) and runs it.
// Prints one JSON line last: {"title": "...", "rows": [...]}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('skillSelectionBench.ts');
