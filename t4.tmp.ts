import { setup } from './eval.tmp';
(async () => {
  const { service, evaluate } = await setup();
  const index = (service as any).index;
  const db = index.db;
  console.log(db.all("SELECT level, count(*) AS n FROM tools_fts_segdir GROUP BY level"));
  evaluate('before');
  let s = performance.now(); db.run("INSERT INTO tools_fts(tools_fts) VALUES('optimize')"); console.log('optimize ms', (performance.now()-s).toFixed(1));
  console.log(db.all("SELECT level, count(*) AS n FROM tools_fts_segdir GROUP BY level"));
  evaluate('after optimize');
})();
