/**
 * Hybrid active-skill selection (bundled and run by bench/skillSelection.bench.mjs): what
 * hybrid selection adds to a request besides the model call — candidate search (≤ 30 names and
 * descriptions), prompt building, strict answer parsing — over stores of 500 and 5,000
 * skills, with a model that answers instantly. Also the whole pre-flight in `search` vs
 * `hybrid` mode, measured per query back to back, for the difference. Target: ≤ 2 ms p95.
 * Prints one JSON line last: {"title", "rows"}.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ChatModelPort } from '../src/core/platform/chatTypes';
import { HYBRID_CANDIDATES, selectActiveSkills } from '../src/core/planner/selection/activeSkillSelection';
import { skillPreflight } from '../src/core/planner/turn/skillPreflight';
import { skillsConfigSchema } from '../src/core/config/settingsSchema';
import { folderPack } from '../src/core/skills/packs/skillPackSources';
import { AREAS as ALL_AREAS, OBJECTS as ALL_OBJECTS, VERBS as ALL_VERBS, median, pctOf, rng, round } from './benchMath';
import { benchEngine, benchSkillService } from './benchServices';

const TARGET_P95_MS = 2;
const ROUNDS = 5;
const QUERIES = 300;
const [AREAS, VERBS, OBJECTS] = [ALL_AREAS.slice(0, 12), ALL_VERBS.slice(0, 12), ALL_OBJECTS.slice(0, 12)];

/** p50 and p95 as the medians of the per-round percentiles, and the best round's p95. */
const acrossRounds = (p50s: number[], p95s: number[]) => ({
  p50_ms: round(median(p50s)),
  p95_ms: round(median(p95s)),
  best_round_p95_ms: round(Math.min(...p95s)),
});

/** A model that answers the selection prompt at once with the 2nd and 4th candidate. */
const instantModel: ChatModelPort = {
  async *send(messages) {
    const prompt = messages[0]?.parts[0]?.kind === 'text' ? messages[0].parts[0].text : '';
    const names = [...prompt.matchAll(/^- ([^:\n]+):/gm)].map((m) => m[1]);
    yield { kind: 'text', text: JSON.stringify({ skills: [names[1], names[3]].filter(Boolean) }) };
  },
  countTokens: async (text) => Math.ceil(text.length / 4),
};

async function main(): Promise<void> {
  const engine = await benchEngine();
  const rows: Array<Record<string, unknown>> = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-selection-bench-'));
  try {
    for (const size of [500, 5000]) {
      const r = rng(size);
      const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)] as T;
      const dir = path.join(tmp, `s${size}`);
      mkdirSync(dir, { recursive: true });
      const lines = Array.from({ length: size }, (_, i) => {
        const [area, verb, object] = [pick(AREAS), pick(VERBS), pick(OBJECTS)];
        return JSON.stringify({
          name: `synth.${area}.${verb}_${object}_${i}`,
          trigger: `${verb} a ${object} in ${area}`,
          task_type: 'code',
          tags: [area],
          steps: [`Find the ${object}.`, `${verb} it.`, 'Verify.'],
        });
      });
      writeFileSync(path.join(dir, 'all.skill.jsonl'), `${lines.join('\n')}\n`);
      const service = await benchSkillService(engine);
      await service.loadPacks([folderPack('synth', dir)]);
      const ctx = { includeWorkspacePacks: true };
      const queries = Array.from({ length: QUERIES }, () => `${pick(VERBS)} the ${pick(OBJECTS)} in ${pick(AREAS)} and ${pick(VERBS)} its ${pick(OBJECTS)}`);
      const signal = { isCancelled: false };
      // Pre-flight as a turn runs it (skillPreflight), with this bench's budget and caps; hybrid asks
      // the model only when more than maxActive candidates are about as relevant (askModelBelowRelevance 0).
      const config = skillsConfigSchema.parse({ maxTokens: 2000, topK: 3, maxActive: 3, selectionTimeoutMs: 5000, askModelBelowRelevance: 0 });
      const request = { pinnedNames: [] as string[], countTokens: async (t: string) => Math.ceil(t.length / 4), signal };
      const searchPort = skillPreflight(service, ctx, { ...config, selection: 'search' }, request);
      const hybridPort = skillPreflight(service, ctx, { ...config, selection: 'hybrid' }, { ...request, chooser: { model: instantModel } });

      const selectionStep = async (q: string) => {
        const candidates = await service.selectionCandidates(q, HYBRID_CANDIDATES, ctx);
        await selectActiveSkills({ mode: 'hybrid', task: q, candidates, pinned: [], maxActive: 3, timeoutMs: 5000 }, { model: instantModel, signal });
      };
      for (const q of queries.slice(0, 100)) {
        await selectionStep(q);
        await searchPort.preflight(q);
        await hybridPort.preflight(q);
      }
      const baseP95: number[] = [];
      const logicP50: number[] = [];
      const logicP95: number[] = [];
      const candidatesByQuery = new Map<string, Array<{ name: string; description: string }>>();
      for (const q of queries) candidatesByQuery.set(q, await service.selectionCandidates(q, HYBRID_CANDIDATES, ctx));
      const stepP50: number[] = [];
      const stepP95: number[] = [];
      const addedP50: number[] = [];
      const addedP95: number[] = [];
      for (let round_ = 0; round_ < ROUNDS; round_++) {
        const step: number[] = [];
        const added: number[] = [];
        const base: number[] = [];
        const logic: number[] = [];
        for (const q of queries) {
          let t = performance.now();
          await selectActiveSkills(
            { mode: 'hybrid', task: q, candidates: candidatesByQuery.get(q) ?? [], pinned: [], maxActive: 3, timeoutMs: 5000 },
            { model: instantModel, signal },
          );
          logic.push(performance.now() - t);
          t = performance.now();
          await service.search({ query: q, limit: 20 }, ctx);
          base.push(performance.now() - t);
          t = performance.now();
          await selectionStep(q);
          step.push(performance.now() - t);
          t = performance.now();
          await searchPort.preflight(q);
          const searchMs = performance.now() - t;
          t = performance.now();
          await hybridPort.preflight(q);
          added.push(performance.now() - t - searchMs);
        }
        baseP95.push(pctOf(base, 0.95));
        logicP50.push(pctOf(logic, 0.5));
        logicP95.push(pctOf(logic, 0.95));
        stepP50.push(pctOf(step, 0.5));
        stepP95.push(pctOf(step, 0.95));
        addedP50.push(pctOf(added, 0.5));
        addedP95.push(pctOf(added, 0.95));
      }
      rows.push({
        case: 'selection logic (prompt, instant model, strict parse)',
        skills: size,
        ...acrossRounds(logicP50, logicP95),
        target: `≤ ${TARGET_P95_MS} ms p95`,
        ok: median(logicP95) <= TARGET_P95_MS,
        measures: "what hybrid adds on top of the candidate search, which replaces search pre-flight's own search",
      });
      rows.push({
        case: 'hybrid selection, model call excluded',
        skills: size,
        ...acrossRounds(stepP50, stepP95),
        skill_search_limit20_p95_ms: round(median(baseP95)),
        ratio_to_skill_search: round(median(stepP95) / Math.max(1e-6, median(baseP95)), 2),
        target: "p95 ≤ 1.5 × skill_search in the same run (it replaces pre-flight's own search)",
        ok: median(stepP95) <= 1.5 * median(baseP95),
        measures: `candidate search (≤ ${HYBRID_CANDIDATES}) + prompt + strict parse with an instant model; ${QUERIES} queries × ${ROUNDS} rounds, median of per-round percentiles`,
      });
      rows.push({
        case: 'pre-flight hybrid − search (same query, back to back)',
        skills: size,
        ...acrossRounds(addedP50, addedP95),
        target: 'informational',
        measures:
          'whole pre-flight (search + render within budget) in hybrid mode minus search mode, per query; the p95 of a difference of two timings mostly measures scheduling noise on a shared machine',
      });
      await service.dispose();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ title: 'Active-skill selection (hybrid) — added latency without the model call', rows }));
}

void main();
