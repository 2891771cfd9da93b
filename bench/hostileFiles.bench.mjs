// @ts-check
// Pathological skill files: parse time, load time and the longest stretch the
// event loop was blocked while a pack holding one of them loads. Prints one JSON line last.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('hostileFilesBench.ts');
