import { cliService, readJsonl, toToolInputs } from '/work/main/src/cli/commands/toolCliSupport';
const B='/work/shared/benchmarks/tool-retrieval/bfcl';
async function main() {
  const mode = process.argv[2];
  const service = await cliService(undefined);
  const tools = toToolInputs(readJsonl(B+'/tools.jsonl'));
  const cat = (service as any).catalog, index = (service as any).index;
  cat.setTools(tools); const reg = [...cat.registry().values()];
  const db = index.db;
  if (mode === 'jm') { db.exec('PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY;'); }
  if (mode === 'off') { db.exec('PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;'); }
  if (mode === 'cache') { db.exec('PRAGMA cache_size=-65536; PRAGMA journal_mode=MEMORY;'); }
  let t = performance.now(); index.sync(reg); console.log(mode, 'sync', (performance.now()-t).toFixed(1));
}
main();
