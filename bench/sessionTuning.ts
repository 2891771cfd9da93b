// Tuning of the learned core set's promotion rule (CORE_SET_RULES) on a session the session
// bench never reports: seed 7 and other daily tools than the bench's session (seed 36), first 500
// turns only. Each candidate runs with the defaults and with request-match pre-activation off,
// beside the static arm of the same configuration in the same run. Not part of `npm run bench`:
// `node bench/tuneCoreSet.mjs` (several minutes). Prints one JSON line last: {"title", "rows"}.
import { CORE_SET_RULES, type CoreSetRules } from '../src/core/ledger/learnedCoreSet';
import { round } from './benchMath';
import { drawSession, loadCorpus, means, runArm } from './sessionSimulation';

const TUNING_TURNS = 500;

/** window, promote at, keep at (the budget, 8 tools and 3 % of the context, is a ceiling, not tuned). */
const CANDIDATES: Array<[number, number, number]> = [
  [20, 5, 2],
  [20, 4, 2],
  [20, 3, 1],
  [20, 2, 1],
  [50, 6, 2],
  [50, 4, 2],
  [50, 3, 1],
  [100, 8, 3],
  [100, 5, 2],
  [100, 3, 1],
  // A finer look around the best of the first pass.
  [100, 7, 3],
  [100, 6, 2],
  [100, 6, 3],
  [50, 5, 2],
  [80, 6, 2],
  [80, 5, 2],
];

async function main(): Promise<void> {
  const corpus = loadCorpus();
  if (!corpus) {
    console.log(JSON.stringify({ title: 'Core set tuning', skipped: 'the shared BFCL folder is absent', rows: [] }));
    return;
  }
  const { requests, daily } = drawSession(corpus, { seed: 7, turns: TUNING_TURNS, bfclOffset: 11, syntheticOffset: 7 });
  const rows: object[] = [];
  for (const preActivateTools of [undefined, 0]) {
    const config = preActivateTools === undefined ? 'defaults' : 'preActivateTools 0';
    const base = means((await runArm(corpus.catalog, requests, { learn: false, preActivateTools })).turns);
    for (const [window, promoteAt, keepAt] of CANDIDATES) {
      const rules: CoreSetRules = { ...CORE_SET_RULES, window, promoteAt, keepAt };
      const arm = await runArm(corpus.catalog, requests, { learn: true, preActivateTools, rules });
      const m = means(arm.turns);
      rows.push({
        config,
        rules: `${promoteAt} of ${window}, keep ${keepAt}`,
        rounds_per_turn: `${round(base.rounds)} → ${round(m.rounds)}`,
        fewer_rounds_pct: round((1 - m.rounds / base.rounds) * 100, 1),
        prompt_tokens_change_pct: round((m.promptTokens / base.promptTokens - 1) * 100, 1),
        daily_tools_promoted: daily.filter((request) => arm.promoted.has(request.gold)).length,
        tools_ever_promoted: arm.promoted.size,
        max_tools: arm.maxCoreTools,
      });
    }
  }
  console.log(JSON.stringify({ title: `Core set tuning (seed 7, first ${TUNING_TURNS} turns)`, rows }));
}

void main();
