// @ts-check
// Skills at scale: bundles bench/skillsAtScaleBench.ts (the same core code the extension runs) and
// runs it over the public skill pool in bench/data/skills-at-scale. Skips, saying why, until
// requests.jsonl there has requests. Prints one JSON line last: {"title": "...", "rows": [...]}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('skillsAtScaleBench.ts');
