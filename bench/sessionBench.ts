// A long simulated @toolshed session through the turn function the extension calls
// (runToolshedTurn), with a scripted model: static deferral vs the learned core set (and skills
// bringing their tools), per window of turns, and what recording each turn in the ledger costs.
// The session is bench/sessionSimulation.ts's, seed 36; the promotion rule's constants were tuned
// on another session (bench/sessionTuning.ts, seed 7, other daily tools), never on this one.
import { CORE_SET_RULES } from '../src/core/ledger/learnedCoreSet';
import { pct, round } from './benchMath';
import { CONTEXT, dailySkills, drawSession, loadCorpus, means, runArm, type ArmResult, type TurnResult } from './sessionSimulation';

const TURNS = 1000;
const WINDOW = 100;
/** With this scripted model every turn takes at least two rounds: a call (the tool or tool_search), then the answer. */
const FLOOR_ROUNDS = 2;

async function main(): Promise<void> {
  const corpus = loadCorpus();
  if (!corpus) {
    console.log(JSON.stringify({ title: 'Session: static vs learned core set', skipped: 'the shared BFCL folder is absent', rows: [] }));
    return;
  }
  const { requests, daily } = drawSession(corpus, { seed: 36, turns: TURNS, bfclOffset: 5, syntheticOffset: 2 });
  const { catalog } = corpus;
  const arms: Array<{ arm: string } & ArmResult> = [];
  const arm = async (name: string, options: Parameters<typeof runArm>[2]) => arms.push({ arm: name, ...(await runArm(catalog, requests, options)) });
  // Defaults (request-match pre-activation on), then strict deferral (pre-activation off).
  await arm('static', { learn: false });
  await arm('learned core set', { learn: true });
  await arm('static, preActivateTools 0', { learn: false, preActivateTools: 0 });
  await arm('learned core set, preActivateTools 0', { learn: true, preActivateTools: 0 });
  const skills = await dailySkills(daily, catalog);
  try {
    await arm('learned + skills bring tools', { learn: true, skills: skills.service });
    await arm('learned + skills bring tools, preActivateTools 0', { learn: true, preActivateTools: 0, skills: skills.service });
  } finally {
    skills.dispose();
  }
  const [staticArm, learned, staticOff, learnedOff, withSkills, withSkillsOff] = arms as [
    (typeof arms)[number],
    (typeof arms)[number],
    (typeof arms)[number],
    (typeof arms)[number],
    (typeof arms)[number],
    (typeof arms)[number],
  ];
  const secondHalf = (turns: readonly TurnResult[]) => turns.slice(TURNS / 2);
  const rows: object[] = [];
  for (const a of arms)
    for (let start = 0; start < a.turns.length; start += WINDOW) {
      const m = means(a.turns.slice(start, start + WINDOW));
      rows.push({
        case: 'window',
        arm: a.arm,
        turns: `${start + 1}-${Math.min(a.turns.length, start + WINDOW)}`,
        rounds_per_turn: round(m.rounds),
        model_requests_per_turn: round(m.requests),
        tool_definition_tokens_per_turn: round(m.definitionTokens, 0),
        prompt_tokens_per_turn: round(m.promptTokens, 0),
        gold_in_round_1: round(m.goldInRound1),
      });
    }
  for (const a of arms) {
    const m = means(secondHalf(a.turns));
    rows.push({
      case: 'second half (turns 501-1000)',
      arm: a.arm,
      rounds_per_turn: round(m.rounds),
      model_requests_per_turn: round(m.requests),
      tool_definition_tokens_per_turn: round(m.definitionTokens, 0),
      prompt_tokens_per_turn: round(m.promptTokens, 0),
      gold_in_round_1: round(m.goldInRound1),
    });
  }
  const compare = (caseName: string, base: (typeof arms)[number], other: (typeof arms)[number], pick: (turns: readonly TurnResult[]) => TurnResult[]) => {
    const b = means(pick(base.turns));
    const o = means(pick(other.turns));
    rows.push({
      case: caseName,
      arms: `${other.arm} vs ${base.arm}`,
      turns: pick(base.turns).length,
      rounds_per_turn: `${round(b.rounds)} → ${round(o.rounds)}`,
      fewer_rounds_pct: round((1 - o.rounds / b.rounds) * 100, 1),
      prompt_tokens_per_turn: `${round(b.promptTokens, 0)} → ${round(o.promptTokens, 0)}`,
      prompt_tokens_per_turn_change_pct: round((o.promptTokens / b.promptTokens - 1) * 100, 1),
      gold_in_round_1: `${round(b.goldInRound1)} → ${round(o.goldInRound1)}`,
      target: '>= 15 % fewer rounds, prompt tokens per turn not higher',
      met: o.rounds <= b.rounds * 0.85 && o.promptTokens <= b.promptTokens,
    });
  };
  const half = (turns: readonly TurnResult[]) => secondHalf(turns);
  for (const [base, other] of [
    [staticArm, learned],
    [staticOff, learnedOff],
    [staticArm, withSkills],
    [staticOff, withSkillsOff],
  ] as const)
    compare('learned core set vs static, second half', base, other, half);
  // The part of the session a core set can change under the defaults: the second half's turns
  // whose gold tool the request match did not pre-activate in the static arm (the same turns in every arm).
  const unmatched = new Set(
    secondHalf(staticArm.turns)
      .map((turn, i) => (turn.gold ? -1 : i))
      .filter((i) => i >= 0),
  );
  const onUnmatched = (turns: readonly TurnResult[]) => secondHalf(turns).filter((_, i) => unmatched.has(i));
  compare('second half, turns whose gold the request match does not pre-activate', staticArm, learned, onUnmatched);
  compare('second half, turns whose gold the request match does not pre-activate', staticArm, withSkills, onUnmatched);
  // Why 15 % fewer rounds cannot be reached under the defaults: the static arm is already within
  // a hair of the model's floor of two rounds a turn.
  for (const base of [staticArm, staticOff]) {
    const m = means(secondHalf(base.turns));
    rows.push({
      case: 'floor: the most any core set could save (every turn needs a call round and an answer round)',
      arm: base.arm,
      rounds_per_turn: round(m.rounds),
      floor_rounds_per_turn: FLOOR_ROUNDS,
      turns_above_floor: round(secondHalf(base.turns).filter((turn) => turn.rounds > FLOOR_ROUNDS).length / (TURNS / 2)),
      most_fewer_rounds_pct: round((1 - FLOOR_ROUNDS / m.rounds) * 100, 1),
    });
  }
  for (const a of [learned, learnedOff, withSkills, withSkillsOff])
    rows.push({
      case: `learned core set budget (${CORE_SET_RULES.maxTools} tools, ${CORE_SET_RULES.maxContextShare * 100} % of 128k)`,
      arm: a.arm,
      rules: `promote at ${CORE_SET_RULES.promoteAt} of ${CORE_SET_RULES.window} turns without the tool in round 1, keep at ${CORE_SET_RULES.keepAt}`,
      tools_ever_promoted: a.promoted.size,
      daily_tools_promoted: daily.filter((request) => a.promoted.has(request.gold)).length,
      max_tools: a.maxCoreTools,
      max_tokens: a.maxCoreTokens,
      budget_tokens: Math.floor(CONTEXT * CORE_SET_RULES.maxContextShare),
      turns_over_budget: a.overBudgetTurns,
    });
  for (const a of arms)
    rows.push({
      case: 'ledger write per turn, CPU ms (recordTurn: outcome → rows, one transaction)',
      arm: a.arm,
      p50_ms: round(pct(a.recordMs, 0.5)),
      p95_ms: round(pct(a.recordMs, 0.95)),
      max_ms: round(pct(a.recordMs, 1)),
      target: '<= 1 ms',
      ledger_bytes_after_1000_turns: a.ledgerBytes,
    });
  console.log(JSON.stringify({ title: 'Session: static vs learned core set (1,000 turns, BFCL + synthetic)', rows }));
}

void main();
