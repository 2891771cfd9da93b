import { cliService, readJsonl, toToolInputs } from '/work/main/src/cli/commands/toolCliSupport';
import { toolFieldTerms } from '/work/main/src/core/tools/toolDocument';
const B='/work/shared/benchmarks/tool-retrieval/bfcl';
async function main() {
  const service = await cliService(undefined);
  const tools = toToolInputs(readJsonl(B+'/tools.jsonl'));
  const cat = (service as any).catalog, index = (service as any).index;
  cat.setTools(tools); const reg = [...cat.registry().values()];
  let t = performance.now(); for (const r of reg) toolFieldTerms(r); console.log('analysis', (performance.now()-t).toFixed(1));
  t = performance.now(); for (const r of reg) toolFieldTerms(r); console.log('analysis warm', (performance.now()-t).toFixed(1));
  const db = index.db;
  t = performance.now(); index.sync(reg); console.log('sync', (performance.now()-t).toFixed(1));
}
main();
