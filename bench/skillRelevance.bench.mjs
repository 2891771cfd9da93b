// Skills relevance set: bundles bench/skillRelevanceBench.ts (the same core code the extension runs) and runs it.
// Prints one JSON line last: {"title": "...", "rows": [...]}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('skillRelevanceBench.ts');
