import { cliService, readJsonl, toToolInputs } from '/work/main/src/cli/commands/toolCliSupport';
import { toolFieldTerms } from '/work/main/src/core/tools/toolDocument';
const B='/work/shared/benchmarks/tool-retrieval/bfcl';
(async () => {
  const tools = toToolInputs(readJsonl(B+'/tools.jsonl'));
  for (let rep = 0; rep < 3; rep++) {
    const service = await cliService(undefined);
    const cat = (service as any).catalog, index = (service as any).index;
    let t = performance.now(); cat.setTools(tools); const reg = [...cat.registry().values()]; const a = performance.now() - t;
    t = performance.now(); for (const r of reg) toolFieldTerms(r); const b = performance.now() - t;
    t = performance.now(); index.sync(reg); const c = performance.now() - t;
    const db = index.db;
    t = performance.now(); db.run("INSERT INTO tools_fts(tools_fts) VALUES('rebuild')"); const d = performance.now() - t;
    t = performance.now(); db.run("CREATE TABLE copy AS SELECT * FROM tools"); const e = performance.now() - t;
    console.log(`registry ${a.toFixed(0)} analysis(warm) ${b.toFixed(0)} sync ${c.toFixed(0)} fts-rebuild ${d.toFixed(0)} copy-table ${e.toFixed(0)}`);
  }
})();
