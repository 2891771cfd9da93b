import { setup } from './eval.tmp';
(async () => {
  const { service } = await setup();
  const index = (service as any).index;
  const db = index.db;
  const terms = [...(index.stats as any).docFreq.entries()] as [string, number][];
  for (const target of [1, 10, 50, 200, 1000]) {
    const sample = terms.filter(([, df]) => df >= target && df < target * 2).slice(0, 50).map(([t]) => t);
    let s = performance.now();
    for (const t of sample) index.ftsCandidateNames([t]);
    const a = (performance.now() - s) / sample.length;
    s = performance.now();
    for (const t of sample) db.arrays('SELECT count(*) FROM tools_fts WHERE tools_fts MATCH ?', [`"${t}"`]);
    const b = (performance.now() - s) / sample.length;
    console.log('df~', target, 'names', a.toFixed(3), 'count', b.toFixed(3));
  }
})();
