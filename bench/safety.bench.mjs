// @ts-check
// Safety benchmarks (redaction corpus, regex guard): bundles bench/safetyBench.ts (the same core code the extension runs) and runs it.
// Prints one JSON line last: {"title": "...", "rows": [...]}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('safetyBench.ts');
