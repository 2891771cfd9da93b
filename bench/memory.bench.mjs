// @ts-check
// Memory benchmark: bundles bench/memoryBench.ts (the core code the extension runs) and runs it
// in a fresh process with --expose-gc. Prints one JSON line last: {"title", "rows"}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('memoryBench.ts', ['--expose-gc']);
