/**
 * Skills relevance set (bundled and run by bench/skillRelevance.bench.mjs): 44 requests no skill
 * applies to and 47 that exactly one skill applies to (bench/data/skill-relevance.jsonl), over
 * the built-in pack plus 33 public SKILL.md skills (bench/data/public-skills, SOURCES.md).
 *
 * Rows: the thresholds tried on the tune half (pure gate + hybrid decision over the same
 * candidates the code computes), the relative cut tried on both halves (chosen on the tune
 * half; 0 = the absolute gate alone), then the extension's defaults through the whole pre-flight
 * path, on both halves, in `search` and `hybrid` mode (the selection model is an oracle that
 * picks the right skill when offered, else none: the counts measure the code's decisions).
 * Targets: ≤ 10 % of no-skill requests inject any skill, ≥ 95 % of one-skill requests inject the
 * right one, ≤ 0.25 selection requests per turn in hybrid.
 * Prints one JSON line last: {"title", "rows"}.
 */
import { skillsConfigSchema } from '../src/core/config/settingsSchema';
import { hybridNeedsModel } from '../src/core/planner/selection/hybridDecision';
import { passingGate } from '../src/core/skills/relevantSkills';
import type { SelectionCandidateRow } from '../src/core/skills/relevantSkills';
import { HYBRID_CANDIDATES } from '../src/core/planner/selection/activeSkillSelection';
import { countTurn, emptyCounts, rates, readRelevanceSet, relevanceService, runPreflight } from './skillRelevanceEval';
import type { RelevanceCase, TurnCounts } from './skillRelevanceEval';
import * as path from 'node:path';
import { BUNDLED_CALIBRATION, WORD_VECTORS_FILE, loadBundledEmbedder } from '../src/core/search/embedding/bundledEmbedder';
import type { RelevanceCalibration } from '../src/core/search/embedding/fusedRelevance';

// Run from the repository root (runTsBench sets the working directory).
const root = process.cwd();

interface Prepared {
  c: RelevanceCase;
  /** Search pre-flight's hits (top-k) with absolute relevance. */
  top: Array<{ name: string; relevance?: number }>;
  /** Hybrid candidates before the gate. */
  candidates: SelectionCandidateRow[];
}

function simulate(
  prepared: readonly Prepared[],
  minRelevance: number,
  confident: number,
  topK: number,
  maxActive: number,
  /** The relative cut; absent = the product's (SKILL_RELATIVE_CUT, none with a threshold of 0). */
  ratio?: number,
): { search: TurnCounts; hybrid: TurnCounts } {
  const search = emptyCounts();
  const hybrid = emptyCounts();
  for (const p of prepared) {
    countTurn(
      search,
      p.c,
      passingGate(p.top.slice(0, topK), minRelevance, ratio).map((h) => h.name),
      0,
    );
    const open = passingGate(p.candidates, minRelevance, ratio);
    const ask = hybridNeedsModel(open, maxActive, { confident });
    const names = ask
      ? p.c.gold && open.some((o) => o.name === p.c.gold)
        ? [p.c.gold]
        : []
      : passingGate(open, confident, 0)
          .slice(0, maxActive)
          .map((o) => o.name);
    countTurn(hybrid, p.c, names, ask ? 1 : 0);
  }
  return { search, hybrid };
}

async function main(): Promise<void> {
  const cases = readRelevanceSet(root);
  const defaults = skillsConfigSchema.parse({});
  const ungated = await relevanceService(root, { minRelevance: 0 });
  const ctx = { includeWorkspacePacks: true };
  const prepared: Prepared[] = [];
  for (const c of cases) {
    const top = (await ungated.search({ query: c.request, limit: Math.max(1, defaults.topK) }, ctx)).skills;
    prepared.push({ c, top, candidates: await ungated.selectionCandidates(c.request, HYBRID_CANDIDATES, ctx) });
  }
  await ungated.dispose();
  const rows: Array<Record<string, unknown>> = [];
  const tune = prepared.filter((p) => p.c.half === 'tune');
  for (const minRelevance of [0, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5]) {
    for (const confident of [0, 0.4, 0.45, 0.5]) {
      const { search, hybrid } = simulate(tune, minRelevance, confident, defaults.topK, defaults.maxActive);
      rows.push({ case: 'tune half: threshold sweep', min_relevance: minRelevance, ask_model_below: confident, search: rates(search), hybrid: rates(hybrid) });
    }
  }
  // The relative cut (relevantSkills.ts) at the default thresholds: 0 is the absolute gate alone.
  for (const ratio of [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) {
    for (const half of ['tune', 'test'] as const) {
      const subset = prepared.filter((p) => p.c.half === half);
      const { search, hybrid } = simulate(subset, defaults.minRelevance, defaults.askModelBelowRelevance, defaults.topK, defaults.maxActive, ratio);
      rows.push({ case: `${half} half: relative cut sweep`, relative_cut: ratio, search: rates(search), hybrid: rates(hybrid) });
    }
  }
  const service = await relevanceService(root);
  for (const [mode, answers] of [
    ['search', 'oracle'],
    ['hybrid', 'oracle'],
    ['hybrid', 'unusable'],
  ] as const) {
    for (const half of ['tune', 'test', 'all'] as const) {
      const subset = half === 'all' ? cases : cases.filter((c) => c.half === half);
      const counts = await runPreflight(service, subset, mode, answers);
      const r = rates(counts);
      rows.push({
        case: `defaults through pre-flight: ${mode}${mode === 'hybrid' ? (answers === 'oracle' ? ' (oracle model)' : ' (unusable model answers)') : ''}, ${half} half`,
        min_relevance: defaults.minRelevance,
        ask_model_below: defaults.askModelBelowRelevance,
        requests: counts.requests,
        ...r,
        target: mode === 'hybrid' && answers === 'oracle' ? 'no-skill ≤ 0.10, one-skill ≥ 0.95, selection ≤ 0.25/turn' : 'informational',
        ok:
          mode === 'hybrid' && answers === 'oracle'
            ? r.no_skill_injection_rate <= 0.1 && r.one_skill_hit_rate >= 0.95 && r.selection_requests_per_turn <= 0.25
            : undefined,
      });
    }
  }
  await service.dispose();
  rows.push(...(await embedderRows(cases)));
  console.log(JSON.stringify({ title: 'Skills relevance set — what pre-flight injects and how often hybrid asks a model', rows }));
}

/**
 * Pre-flight with the bundled embedder on (fused evidence in the absolute relevance): the
 * calibration swept on the tune half, then the shipped calibration on both halves beside the
 * lexical rows above (same defaults, same oracle).
 */
async function embedderRows(cases: readonly RelevanceCase[]): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  const service = await relevanceService(root);
  const tune = cases.filter((c) => c.half === 'tune');
  // The bench runs from a bundle in a temporary folder: name the source tree's file.
  const file = path.join(root, 'src', 'core', 'search', 'vocabulary', WORD_VECTORS_FILE);
  const use = (calibration: RelevanceCalibration) => {
    const embedder = loadBundledEmbedder(file, calibration);
    if (!embedder) throw new Error(`${file} is missing`);
    service.useEmbedder(embedder);
  };
  for (const floor of [0.6, 0.7, 0.75, 0.8, 0.85]) {
    for (const span of [0.1, 0.2]) {
      use({ floor, ceiling: floor + span });
      const counts = await runPreflight(service, tune, 'hybrid', 'oracle');
      rows.push({
        case: 'bundled embedder, tune half: calibration sweep (hybrid, oracle)',
        floor,
        ceiling: Number((floor + span).toFixed(2)),
        ...rates(counts),
      });
    }
  }
  use(BUNDLED_CALIBRATION);
  for (const mode of ['search', 'hybrid'] as const) {
    for (const half of ['tune', 'test', 'all'] as const) {
      const subset = half === 'all' ? cases : cases.filter((c) => c.half === half);
      const r = rates(await runPreflight(service, subset, mode, 'oracle'));
      rows.push({
        case: `bundled embedder (fused relevance ${JSON.stringify(BUNDLED_CALIBRATION)}) through pre-flight: ${mode}${mode === 'hybrid' ? ' (oracle model)' : ''}, ${half} half`,
        requests: subset.length,
        ...r,
        ...(mode === 'hybrid' ? { ok: r.no_skill_injection_rate <= 0.1 && r.one_skill_hit_rate >= 0.95 && r.selection_requests_per_turn <= 0.25 } : {}),
      });
    }
  }
  await service.dispose();
  return rows;
}

void main();
