/**
 * Hostile-file benchmark (bundled and run by bench/hostileFiles.bench.mjs). For each
 * pathological file under the 1 MiB cap: the parser's time alone, then `loadPacks` of a pack
 * holding it beside a good file — total time, the longest event-loop stall during the load (a
 * 1 ms timer measures the gaps), problems listed, and whether the good file's skill loaded.
 * Prints one JSON line last: {"title", "rows"}.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { skillsConfigSchema } from '../src/core/config/settingsSchema';
import { lengthTokenCounter, nullEventSink, nullLogger } from '../src/core/platform/basicPorts';
import { MemoryByteStore } from '../src/core/platform/memoryByteStore';
import { nodeFileSystem } from '../src/core/platform/nodeFileSystem';
import { loadSqlEngine } from '../src/core/sql/sqlEngine';
import { createSkillService } from '../src/core/skills/skillService';
import { parseSkillDocument } from '../src/core/skills/packs/document/skillDocumentParser';

const round = (v: number) => Number(v.toFixed(1));

const unknownKeys = Array.from({ length: 50_000 }, (_, i) => `k${i}: v`).join('\n');
const CASES: Array<{ name: string; file: string; text: string }> = [
  { name: 'self-referencing alias', file: 'alias.skill.yaml', text: 'a: &a [*a]\ntrigger: x\nsteps: [a]\n' },
  { name: '100k lines of {}', file: 'empty.skill.jsonl', text: '{}\n'.repeat(100_000) },
  { name: '50k unknown keys (YAML)', file: 'keys.skill.yaml', text: `trigger: t\nsteps: [a]\n${unknownKeys}\n` },
  { name: '50k unknown keys (JSON)', file: 'keys.skill.json', text: JSON.stringify(Object.fromEntries([['trigger', 't'], ['steps', ['a']], ...Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 'v'])])) },
  { name: '34k valid skills (JSONL)', file: 'many.skill.jsonl', text: Array.from({ length: 34_000 }, () => JSON.stringify({ trigger: 't', steps: ['a'] })).join('\n') },
  { name: '3,000-character description', file: 'long/SKILL.md', text: `---\nname: long\ndescription: ${'word '.repeat(599)}final\n---\nBody\n` },
];

async function main(): Promise<void> {
  const engine = await loadSqlEngine({ wasmPath: path.join(process.cwd(), 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm') });
  const rows: Array<Record<string, unknown>> = [];
  for (const c of CASES) {
    const t0 = performance.now();
    const parsed = parseSkillDocument(c.text, c.file);
    const parseMs = performance.now() - t0;

    const root = mkdtempSync(path.join(os.tmpdir(), 'toolshed-hostile-bench-'));
    writeFileSync(path.join(root, 'good.skill.yaml'), 'name: good\ntrigger: A good skill\nsteps: [Do it.]\n');
    const target = path.join(root, c.file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, c.text);
    const service = await createSkillService({
      engine, store: new MemoryByteStore(), config: skillsConfigSchema.parse({ includeAgentSkillFolders: false }), logger: nullLogger,
      events: nullEventSink, clock: { now: () => Date.now() }, tokenCounter: lengthTokenCounter, fs: nodeFileSystem, env: {}, autoSaveDelayMs: 0,
    });
    let last = performance.now();
    let longestStall = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestStall = Math.max(longestStall, now - last);
      last = now;
    }, 1);
    const t1 = performance.now();
    let error = '';
    let problems = 0;
    try {
      const summary = await service.loadPacks([{ name: 'bench', root, scopeMode: 'global', enabled: true, updateExistingPackSkills: true, pinnedSkillNames: [], source: 'settings', workspace: false, optional: false }]);
      problems = summary.problems.length;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const loadMs = performance.now() - t1;
    clearInterval(timer);
    longestStall = Math.max(longestStall, performance.now() - last);
    rows.push({
      case: c.name, chars: c.text.length, parse_ms: round(parseMs), parsed_skills: parsed.skills.length, load_ms: round(loadMs),
      longest_stall_ms: round(longestStall), problems_listed: problems, good_skill_loaded: service.inspect('good') !== undefined, error,
    });
    await service.dispose();
    rmSync(root, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ title: 'Hostile skill files: parse/load time and longest event-loop stall (one file beside a good one)', rows }));
}

void main();
