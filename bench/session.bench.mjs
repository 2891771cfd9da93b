// @ts-check
// A 1,000-turn simulated @toolshed session (static deferral vs the learned core set) and the
// ledger's write cost and size: bundles bench/sessionBench.ts (it runs runToolshedTurn, the
// turn function the extension calls) and runs it. Prints one JSON line last: {"title", "rows"}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('sessionBench.ts');
