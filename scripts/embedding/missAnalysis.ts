// Error analysis of the fused ranking (development only): reads what tune.ts wrote with
// DUMP=FILE (per query: analysed terms, words the vectors lack, lexical and embedding top 20,
// fused order) and prints why the gold tool's family is not in the fused top 5, and how far
// each lever could move any-version R@5 at best.
//   DUMP=/tmp/odd.json nice npx tsx scripts/embedding/tune.ts
//   npx tsx scripts/embedding/missAnalysis.ts /tmp/odd.json
import { readFileSync } from 'node:fs';

interface Row {
  query: string;
  gold: string[];
  terms: string[];
  oov: string[];
  lex: Array<[string, number]>;
  emb: Array<[string, number]>;
  fused: string[];
}
interface ToolTerms {
  name: string[];
  desc: string[];
  params: string[];
}

const file = process.argv[2] ?? '';
const rows = JSON.parse(readFileSync(file, 'utf8')) as Row[];
const tools = JSON.parse(readFileSync(`${file}.tools.json`, 'utf8')) as Record<string, ToolTerms>;
const family = (name: string) => name.replace(/__v\d+$/, '');
const hits = (row: Row, list: readonly string[], k = 5) => list.slice(0, k).some((n) => row.gold.some((g) => family(g) === family(n)));
const names = (list: Array<[string, number]>) => list.map(([n]) => n);
const share = (n: number) => `${n} (${(n / rows.length).toFixed(3)})`;

/** The order with each family's later versions moved after the first `keep` places. */
function newFamiliesAfter(order: readonly string[], keep: number): string[] {
  const head = order.slice(0, keep);
  const seen = new Set(head.map(family));
  const later: string[] = [];
  for (const n of order.slice(keep)) {
    if (seen.has(family(n))) later.push(n);
    else {
      head.push(n);
      seen.add(family(n));
    }
  }
  return [...head, ...later];
}

const fusedHits = rows.filter((r) => hits(r, r.fused)).length;
const misses = rows.filter((r) => !hits(r, r.fused));
const classes = new Map<string, number>();
for (const r of misses) {
  const gold = tools[r.gold[0]];
  const goldTerms = new Set([...gold.name, ...gold.desc, ...gold.params]);
  const shared = r.terms.some((t) => goldTerms.has(t));
  const letters = (r.query.match(/[a-z]/gi) ?? []).length;
  const topFamilies = new Set(r.fused.slice(0, 5).map(family)).size;
  const inCandidates = hits(r, names(r.lex), 20) || hits(r, names(r.emb), 20);
  const kind =
    letters < 0.3 * r.query.length
      ? 'not English (no word to match)'
      : !shared && r.oov.some((t) => /^[a-z]{3,}$/.test(t))
        ? 'no word shared with the gold; a query word lacks a vector'
        : !shared
          ? 'no word shared with the gold; every query word has a vector'
          : !inCandidates
            ? 'words shared, gold outside both top-20 lists'
            : topFamilies <= 3
              ? 'gold ranked 6-20 behind versions of other tools (top 5 holds <= 3 families)'
              : 'gold ranked 6-20 behind 4-5 other tools';
  classes.set(kind, (classes.get(kind) ?? 0) + 1);
}

console.log(`${rows.length} queries; fused any-version R@5 ${share(fusedHits)}; misses ${misses.length}`);
for (const [kind, n] of [...classes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)}  ${kind}`);
console.log('upper bounds (any-version R@5):');
console.log(
  `  better of lexical top 5 and embedding top 5, chosen per query by an oracle: ${share(rows.filter((r) => hits(r, names(r.lex)) || hits(r, names(r.emb))).length)}`,
);
console.log(
  `  any re-ranking of lexical top 20 united with embedding top 20: ${share(rows.filter((r) => hits(r, names(r.lex), 20) || hits(r, names(r.emb), 20)).length)}`,
);
const oovMisses = misses.filter((r) => r.oov.some((t) => /^[a-z]{3,}$/.test(t))).length;
console.log(`  every miss with a word lacking a vector fixed: ${share(fusedHits + oovMisses)}`);
const families = rows.reduce((sum, r) => sum + new Set(r.fused.slice(0, 5).map(family)).size, 0) / rows.length;
console.log(`distinct families in the fused top 5: ${families.toFixed(2)} on average`);
for (const keep of [1, 2, 3, 4]) {
  const exact = rows.filter((r) =>
    newFamiliesAfter(r.fused, keep)
      .slice(0, 5)
      .some((n) => r.gold.includes(n)),
  ).length;
  const any = rows.filter((r) => hits(r, newFamiliesAfter(r.fused, keep))).length;
  console.log(
    `  fused order, one version per family after place ${keep}: exact R@5 ${(exact / rows.length).toFixed(3)}, any-version ${(any / rows.length).toFixed(3)}`,
  );
}
const exactFused = rows.filter((r) => r.fused.slice(0, 5).some((n) => r.gold.includes(n))).length;
console.log(`  fused order as is: exact R@5 ${(exactFused / rows.length).toFixed(3)}, any-version ${(fusedHits / rows.length).toFixed(3)}`);
