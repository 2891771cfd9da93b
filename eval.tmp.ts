import { cliService, readJsonl, toToolInputs } from '/work/main/src/cli/commands/toolCliSupport';
import { RANKER_DEFAULTS } from '/work/main/src/core/tools/toolRanker';
import { createHash } from 'node:crypto';
const B='/work/shared/benchmarks/tool-retrieval/bfcl';
const half = (id: string) => createHash('sha1').update(id).digest()[0] % 2 === 0 ? 'even' : 'odd';
export async function setup() {
  const ranker = JSON.parse(JSON.stringify(RANKER_DEFAULTS));
  const service = await cliService(undefined, ranker);
  const tools = toToolInputs(readJsonl(B+'/tools.jsonl'));
  const queries = readJsonl<any>(B+'/queries.jsonl');
  let t = performance.now(); service.setTools(tools); const indexMs = performance.now()-t;
  const run = await service.startRun();
  function evaluate(label: string, perCat = false) {
    const tal: Record<string, number[]> = {};
    const times: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      const r = run.search({ query: q.query.slice(0, 500), limit: 10, include_always_loaded: true }, { activate: false }) as any;
      times.push(performance.now() - s);
      const names = r.ok ? r.output.tools.map((x: any) => x.name) : [];
      const rank = names.findIndex((n: string) => q.gold.includes(n));
      for (const k of ['all', half(q.id), ...(perCat ? [q.category] : [])]) {
        const a = tal[k] ??= [0,0,0,0,0];
        a[0]++; if (rank===0) a[1]++; if (rank>=0&&rank<5) a[2]++; if (rank>=0&&rank<10) { a[3]++; a[4]+=1/(rank+1); }
      }
    }
    times.sort((a,b)=>a-b);
    const f = (a: number[]) => `R1 ${(a[1]/a[0]).toFixed(3)} R5 ${(a[2]/a[0]).toFixed(3)} R10 ${(a[3]/a[0]).toFixed(3)} MRR ${(a[4]/a[0]).toFixed(3)}`;
    console.log(`${label.padEnd(30)} even[${f(tal.even)}] odd[${f(tal.odd)}] all[${f(tal.all)}] p50 ${times[times.length>>1].toFixed(2)} p95 ${times[Math.floor(times.length*.95)].toFixed(2)}`);
    if (perCat) for (const k of Object.keys(tal)) if (!['all','even','odd'].includes(k)) console.log('   ', k.padEnd(18), f(tal[k]));
    return tal.even;
  }
  return { ranker, evaluate, indexMs, service, run };
}
if (require.main === module) (async () => { const { evaluate, indexMs } = await setup(); console.log('index', indexMs.toFixed(0)); evaluate('current', true); })();
