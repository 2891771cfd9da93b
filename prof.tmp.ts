import { cliService, readJsonl, toToolInputs } from '/work/main/src/cli/commands/toolCliSupport';
import { writeCatalog } from '/work/main/bench/synthetic-tools.mjs';
const B='/work/shared/benchmarks/tool-retrieval/bfcl';
async function main() {
  const which = process.argv[2] ?? 'bfcl';
  let tf = B+'/tools.jsonl', qf = B+'/queries.jsonl';
  if (which !== 'bfcl') { const f = writeCatalog('/tmp/ts/syn', Number(which), 7); tf = f.toolsFile; qf = f.queriesFile; }
  const service = await cliService(undefined);
  const tools = toToolInputs(readJsonl(tf));
  const queries = readJsonl<any>(qf);
  const cat = (service as any).catalog, index = (service as any).index;
  let t = performance.now();
  cat.setTools(tools); const reg = [...cat.registry().values()];
  const tReg = performance.now() - t; t = performance.now();
  index.sync(reg); const tSync = performance.now() - t;
  console.log('registry', tReg.toFixed(1), 'sync', tSync.toFixed(1));
  const run = await service.startRun();
  for (const q of queries.slice(0, 50)) run.search({ query: q.query, limit: 10, include_always_loaded: true });
  const times: number[] = [];
  for (const q of queries) { const s = performance.now(); run.search({ query: q.query.slice(0,500), limit: 10, include_always_loaded: true }); times.push(performance.now()-s); }
  times.sort((a,b)=>a-b); console.log('p50', times[times.length>>1].toFixed(3), 'p95', times[Math.floor(times.length*.95)].toFixed(3));
  const rs: number[] = [];
  for (let i = 0; i < 15; i++) { const target = tools[(i*7919)%tools.length]; const changed = tools.map(x => x === target ? {...x, description: x.description+' r'+i} : x);
    let s = performance.now(); cat.setTools(changed); const r = [...cat.registry().values()]; const a = performance.now()-s; s = performance.now(); index.sync(r); const b = performance.now()-s;
    rs.push(a+b); if (i<3) console.log('reindex registry', a.toFixed(2), 'sync', b.toFixed(2)); service.setTools(tools); }
  rs.sort((a,b)=>a-b); console.log('reindex median', rs[7].toFixed(2));
}
main();
