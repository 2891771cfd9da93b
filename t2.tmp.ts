import { setup } from './eval.tmp';
(async () => {
  const { evaluate, service } = await setup();
  const index = (service as any).index;
  const orig = index.ftsCandidateNames.bind(index);
  let ft = 0, n = 0, cnt = 0;
  index.ftsCandidateNames = (t: string[]) => { const s = performance.now(); const r = orig(t); ft += performance.now() - s; n++; cnt += r.length; return r; };
  evaluate('x');
  console.log('fts ms/query', (ft/n).toFixed(3), 'avg candidates', (cnt/n).toFixed(0));
})();
