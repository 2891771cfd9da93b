// Tuning harness (development only): lexical top-20 from the real service, the embedding's
// nearest neighbours, fused; exact and any-version R@5 on one BFCL half (HALF=odd, the tuning
// half; never tune on the even one). Knobs by environment: WV (vector file), MODE=score|rrf,
// LAMBDA, WEMB/RRFK (rrf), NEMB (neighbours), SHORT (unite only below this many lexical hits),
// WEIGHT=corpus|catalog|both|none, WNAME, WPARAM, CENTER, FIELDMIX (share of a name-only vector
// in the similarity), SUBWORD (a query word without a vector takes the known word with the most
// shared letter trigrams, at least this Jaccard: what sub-word vectors could add for misspelt
// and inflected words), DUMP=FILE (per-query lists for scripts/embedding/missAnalysis.ts).
// The lexical lists are cached in the temp folder.
//   nice npx tsx scripts/embedding/tune.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliService } from '../../src/cli/commands/toolCliSupport';
import { readJsonl, readToolCatalog } from '../../src/cli/commands/cliInput';
import { queryIdParity } from '../../src/cli/commands/benchTools';
import { decodeWordVectors } from '../../src/core/search/embedding/wordVectorsFormat';
import { TextAnalyzer } from '../../src/core/search/textAnalysis';

const dir =
  [path.resolve(__dirname, '..', '..', '..', 'shared'), path.resolve(__dirname, '..', '..', '..', '..', 'shared')]
    .map((shared) => path.join(shared, 'benchmarks', 'tool-retrieval', 'bfcl'))
    .find((candidate) => existsSync(path.join(candidate, 'tools.jsonl'))) ?? 'bfcl-not-found';
const half = process.env.HALF ?? 'odd';
const tools = readToolCatalog(`${dir}/tools.jsonl`, { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) });
const queries = readJsonl<{ id: string; query: string; gold: string[]; category: string }>(`${dir}/queries.jsonl`, 'queries').filter(
  (q) => queryIdParity(q.id) === half,
);
const family = (n: string) => n.replace(/__v\d+$/, '');

async function lexical(): Promise<Array<Array<[string, number]>>> {
  const cache = path.join(os.tmpdir(), `toolshed-tune-lexical-${half}.json`);
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8'));
  const service = await cliService(undefined);
  service.setTools(tools);
  const run = await service.startRun();
  const out = queries.map((q) => {
    const r = run.search({ query: q.query.slice(0, 500), search_type: 'fts', limit: 20, include_always_loaded: true });
    return r.ok ? r.output.tools.map((t) => [t.name, t.score] as [string, number]) : [];
  });
  writeFileSync(cache, JSON.stringify(out));
  return out;
}

async function main() {
  const lexS = await lexical();
  const lex = lexS.map((l) => l.map(([n]) => n));
  const wv = decodeWordVectors(readFileSync(process.env.WV ?? path.join(__dirname, '..', '..', 'src', 'core', 'search', 'vocabulary', 'word-vectors.bin')));
  const D = wv.dims;
  const index = new Map(wv.words.map((w, i) => [w, i]));
  const an = new TextAnalyzer();
  const docTerms = tools.map((t) => {
    const props = (t.inputSchema as { properties?: Record<string, { description?: unknown }> } | undefined)?.properties ?? {};
    const params = Object.entries(props)
      .map(([k, v]) => `${k} ${typeof v?.description === 'string' ? v.description : ''}`)
      .join(' ');
    return { name: an.analyze(t.name), desc: an.analyze(t.description ?? ''), params: an.analyze(params) };
  });
  const df = new Map<string, number>();
  for (const d of docTerms) for (const t of new Set([...d.name, ...d.desc, ...d.params])) df.set(t, (df.get(t) ?? 0) + 1);
  const N = tools.length;
  const idf = (t: string) => Math.log(1 + N / ((df.get(t) ?? 0) + 1));
  const wName = Number(process.env.WNAME ?? 2),
    wParam = Number(process.env.WPARAM ?? 0.3);
  const vec = (weighted: Array<[string, number]>) => {
    const v = new Float32Array(D);
    for (const [t, w] of weighted) {
      const i = index.get(t);
      if (i === undefined) continue;
      const mode = process.env.WEIGHT ?? 'corpus';
      const s = wv.scales[i] * w * (mode === 'catalog' ? idf(t) : mode === 'corpus' ? wv.weights[i] : mode === 'both' ? idf(t) * wv.weights[i] : 1);
      for (let d = 0; d < D; d++) v[d] += wv.values[i * D + d] * s;
    }
    let n = 0;
    for (let d = 0; d < D; d++) n += v[d] * v[d];
    n = Math.sqrt(n) || 1;
    for (let d = 0; d < D; d++) v[d] /= n;
    return v;
  };
  const docs = docTerms.map((d) =>
    vec([
      ...d.name.map((t) => [t, wName] as [string, number]),
      ...d.desc.map((t) => [t, 1] as [string, number]),
      ...d.params.map((t) => [t, wParam] as [string, number]),
    ]),
  );
  const nameDocs = docTerms.map((d) => vec(d.name.map((t) => [t, 1] as [string, number])));
  if (process.env.CENTER) {
    const mean = new Float32Array(D);
    for (const d of docs) for (let k = 0; k < D; k++) mean[k] += d[k] / docs.length;
    const c = Number(process.env.CENTER);
    for (const d of docs) {
      let n = 0;
      for (let k = 0; k < D; k++) {
        d[k] -= c * mean[k];
        n += d[k] * d[k];
      }
      n = Math.sqrt(n) || 1;
      for (let k = 0; k < D; k++) d[k] /= n;
    }
  }
  const K = Number(process.env.RRFK ?? 10),
    wEmb = Number(process.env.WEMB ?? 0.5),
    nEmb = Number(process.env.NEMB ?? 20);
  const tally = { e5: 0, f5: 0, x5: 0, xf5: 0, l5: 0, lf5: 0 };
  const dump: unknown[] = [];
  const grams = (w: string) => {
    const p = `<${w}>`;
    const g = new Set<string>();
    for (let i = 0; i + 3 <= p.length; i++) g.add(p.slice(i, i + 3));
    return g;
  };
  const vocabGrams = process.env.SUBWORD ? wv.words.map(grams) : [];
  const nearestWord = (t: string): string => {
    if (index.has(t) || !process.env.SUBWORD || t.length < 4 || /\d/.test(t)) return t;
    const g = grams(t);
    let best = t,
      bestScore = Number(process.env.SUBWORD);
    vocabGrams.forEach((vg, i) => {
      let shared = 0;
      for (const x of g) if (vg.has(x)) shared++;
      const j = shared / (g.size + vg.size - shared);
      if (j > bestScore) [best, bestScore] = [wv.words[i], j];
    });
    return best;
  };
  queries.forEach((q, qi) => {
    const qv = vec(an.analyze(q.query.slice(0, 500)).map((t) => [nearestWord(t), 1]));
    const fieldMix = Number(process.env.FIELDMIX ?? 0);
    const sims = docs.map((d, i) => {
      let s = 0;
      for (let k = 0; k < D; k++) s += d[k] * qv[k];
      if (fieldMix > 0) {
        let sn = 0;
        for (let k = 0; k < D; k++) sn += nameDocs[i][k] * qv[k];
        s = (1 - fieldMix) * s + fieldMix * sn;
      }
      return [i, s] as [number, number];
    });
    sims.sort((a, b) => b[1] - a[1]);
    const emb = sims.slice(0, nEmb).map(([i]) => tools[i].name);
    const score = new Map<string, number>();
    lex[qi].forEach((n, r) => score.set(n, (score.get(n) ?? 0) + 1 / (K + r + 1)));
    const useEmb = lex[qi].length < Number(process.env.SHORT ?? 1000);
    if (useEmb) emb.forEach((n, r) => score.set(n, (score.get(n) ?? 0) + wEmb / (K + r + 1)));
    if ((process.env.MODE ?? 'score') === 'score') {
      score.clear();
      const lam = Number(process.env.LAMBDA ?? 1.5);
      const cosOf = new Map(sims.map(([i, s]) => [tools[i].name, s]));
      const top = sims[0][1];
      for (const [n, s] of lexS[qi]) score.set(n, s + lam * ((cosOf.get(n) ?? 0) - top));
      if (useEmb)
        for (const [i, s] of sims.slice(0, nEmb)) if (!score.has(tools[i].name)) score.set(tools[i].name, lam * (s - top) + Number(process.env.EMBBASE ?? 0));
    }
    const fused = [...score].sort((a, b) => b[1] - a[1]).map(([n]) => n);
    if (process.env.DUMP) {
      const terms = an.analyze(q.query.slice(0, 500));
      const cosOf = new Map(sims.map(([i, s]) => [tools[i].name, s]));
      dump.push({
        ...q,
        terms,
        oov: terms.filter((t) => !index.has(t)),
        lex: lexS[qi],
        emb: sims.slice(0, 20).map(([i, s]) => [tools[i].name, s]),
        fused: fused.slice(0, 20),
        lexSims: lexS[qi].map(([n]) => cosOf.get(n)),
        goldCos: q.gold.map((g) => cosOf.get(g)),
      });
    }
    const gold = new Set(q.gold),
      gf = new Set(q.gold.map(family));
    const hit = (list: string[], fam: boolean) => list.slice(0, 5).some((n) => (fam ? gf.has(family(n)) : gold.has(n)));
    if (hit(emb, false)) tally.e5++;
    if (hit(emb, true)) tally.f5++;
    if (hit(fused, false)) tally.x5++;
    if (hit(fused, true)) tally.xf5++;
    if (hit(lex[qi], false)) tally.l5++;
    if (hit(lex[qi], true)) tally.lf5++;
  });
  if (process.env.DUMP) {
    writeFileSync(process.env.DUMP, JSON.stringify(dump));
    writeFileSync(`${process.env.DUMP}.tools.json`, JSON.stringify(Object.fromEntries(tools.map((t, i) => [t.name, { ...docTerms[i], text: t.description }]))));
  }
  const r = (x: number) => (x / queries.length).toFixed(3);
  console.log(
    `${half} n=${queries.length} lex ${r(tally.l5)}/${r(tally.lf5)} emb ${r(tally.e5)}/${r(tally.f5)} fused ${r(tally.x5)}/${r(tally.xf5)}  (exact/family R@5)`,
  );
}
void main();
