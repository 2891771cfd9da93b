// @ts-check
// Tunes the learned core set's promotion rule on a session the session bench never reports
// (bench/sessionTuning.ts). Not part of `npm run bench` (its name does not end in .bench.mjs):
// it runs 34 arms of 500 turns (about 5 minutes of CPU). Prints one JSON line last: {"title", "rows"}.
import { runTsBench } from './runTsBench.mjs';

await runTsBench('sessionTuning.ts');
