// @ts-check
// Skill store at scale over the real public-skill pool: bench/skillPoolScaleBench.ts (bundled,
// run in a fresh Node process; each measurement in a child process of its own). Prints one JSON
// line last: {"title", "rows"}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('skillPoolScaleBench.ts');
