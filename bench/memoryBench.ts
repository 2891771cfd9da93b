/**
 * Memory benchmark (bundled and run by bench/memory.bench.mjs, one fresh process per case with
 * --expose-gc): RSS growth of a Toolshed session with 200 tools indexed and 500 skills loaded,
 * step by step, broken down into JS heap and external memory (sql.js's WebAssembly memory is
 * counted there). The tool index and the skill store share one sql.js module (as the extension
 * does; `sql_js_modules` checks it). Prints one JSON line: {"rows"} in MB.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MemoryByteStore } from '../src/core/platform/memoryByteStore';
import { folderPack } from '../src/core/skills/packs/skillPackSources';
import { createToolSearchService } from '../src/core/tools/toolSearchService';
// @ts-expect-error: plain ESM helper shared with bench/tools.bench.mjs (bundled by esbuild)
import { generateCatalog } from './synthetic-tools.mjs';
import { benchEngine, benchSkillService } from './benchServices';

const TOOLS = 200;
const SKILLS = 500;
const mb = (bytes: number) => Number((bytes / 1048576).toFixed(1));

function snapshot(): NodeJS.MemoryUsage {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage();
}

function writeSkills(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const areas = ['git', 'review', 'testing', 'api', 'database', 'deploy', 'docs', 'security', 'ci', 'cloud'];
  const verbs = ['create', 'update', 'delete', 'list', 'migrate', 'validate', 'export', 'debug', 'rotate', 'archive'];
  const lines = Array.from({ length: SKILLS }, (_, i) => {
    const area = areas[i % areas.length];
    const verb = verbs[Math.floor(i / areas.length) % verbs.length];
    return JSON.stringify({
      name: `memory.${area}.${verb}_${i}`,
      title: `${verb} ${area} item ${i}`,
      trigger: `${verb} a ${area} item number ${i} safely`,
      task_type: 'code',
      tags: [area, verb],
      steps: [`Find the ${area} item.`, `${verb} it.`, 'Verify the result.'],
    });
  });
  writeFileSync(path.join(dir, 'skills.skill.jsonl'), `${lines.join('\n')}\n`);
}

interface Step {
  step: string;
  rss_delta_mb: number;
  js_heap_delta_mb: number;
  wasm_external_delta_mb: number;
  rss_total_mb: number;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-memory-bench-'));
  const rows: Array<Step & { sql_js_modules?: number }> = [];
  try {
    writeSkills(tmp);
    const { tools } = generateCatalog(TOOLS, 3) as { tools: Array<{ name: string; description: string; inputSchema: unknown; tags: string[] }> };
    const start = snapshot();
    let previous = start;
    const step = (label: string) => {
      const now = snapshot();
      rows.push({
        step: label,
        rss_delta_mb: mb(now.rss - previous.rss),
        js_heap_delta_mb: mb(now.heapUsed - previous.heapUsed),
        wasm_external_delta_mb: mb(now.external - previous.external),
        rss_total_mb: mb(now.rss),
      });
      previous = now;
    };
    const toolEngine = await benchEngine();
    step('sql.js loaded');
    const toolService = await createToolSearchService({ engine: toolEngine, store: new MemoryByteStore(), saveDelayMs: 60_000 });
    toolService.setTools(tools.map((t) => ({ ...t, source: 'mcp' })));
    const run = await toolService.startRun();
    run.search({ query: 'create an issue on github' });
    run.end();
    // The sql.js write is deferred to the delayed save; the extension's save runs within half a
    // second, so memory is measured with the rows written.
    await toolService.flush();
    step(`+ ${TOOLS} tools indexed, searched and written`);
    // The extension passes its one engine to both stores; a second load must not add a module.
    const skillEngine = await benchEngine();
    const skills = await benchSkillService(skillEngine);
    await skills.loadPacks([folderPack('memory', tmp)]);
    await skills.search({ query: 'rotate the security item' }, { includeWorkspacePacks: true });
    step(`+ ${SKILLS} skills loaded and searched`);
    const end = snapshot();
    rows.push({
      step: `session total (${TOOLS} tools + ${SKILLS} skills)`,
      rss_delta_mb: mb(end.rss - start.rss),
      js_heap_delta_mb: mb(end.heapUsed - start.heapUsed),
      wasm_external_delta_mb: mb(end.external - start.external),
      rss_total_mb: mb(end.rss),
      sql_js_modules: skillEngine.sql === toolEngine.sql ? 1 : 2,
    });
    await toolService.dispose();
    await skills.dispose();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ title: 'Memory (RSS growth of a session: tool index + skill store)', rows }));
}

void main();
