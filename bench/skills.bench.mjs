// @ts-check
// Skill benchmarks: bundles bench/skillsBench.ts (the same core code the extension and CLI run)
// and runs it. Prints one JSON line last: {"title": "...", "rows": [...]}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('skillsBench.ts');
