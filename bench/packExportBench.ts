/**
 * Export as Skill Pack benchmarks (bundled and run by bench/packExport.bench.mjs), over a store
 * of 10,000 learned skills:
 * - exporting 500 of them as SKILL.md folders, then loading that folder (which retires the 500);
 * - a pack file reload (the file watcher's path) of an unrelated skill file, p50/p95, with no
 *   exported pack skills and with the 500 exported ones loaded (it skips the retirement check:
 *   that file neither claims nor claimed a learned skill), and the full check alone.
 * Prints one JSON line last: {"title", "rows"}.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exportLearnedAsPack } from '../src/core/learning/snapshot/skillPackExport';
import { nodePackFolderWriter } from '../src/core/platform/nodePackFolderWriter';
import { folderPack } from '../src/core/skills/packs/skillPackSources';
import type { ResolvedSkillPack } from '../src/core/skills/packs/skillPackSources';
import type { SkillRecord } from '../src/core/skills/skillSchema';
import { AREAS, OBJECTS, VERBS, pct, rng, round } from './benchMath';
import { BENCH_PROJECT, benchEngine, benchLearnedRecord, benchSkillService } from './benchServices';

const PROJECT = BENCH_PROJECT;
const N = 10_000;
const EXPORTED = 500;
const clock = { now: () => 1_700_000_000_000 };

function learnedRecord(i: number, r: () => number): SkillRecord {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const [area, verb, object] = [pick(AREAS), pick(VERBS), pick(OBJECTS)];
  const trigger = `${verb} the ${object} in ${area} (batch ${i % 211})`;
  const steps = [`Call \`${area}_find_${object}\` with \`query\`.`, `Call \`${area}_${verb}_${object}\` with \`id\`.`];
  return benchLearnedRecord(i, { trigger, steps, extra: { learned_kind: 'positive', source_hash: `hash-${i}` } }, clock.now());
}

const pack = (name: string, root: string): ResolvedSkillPack =>
  folderPack(name, root, { scopeMode: 'project', projectId: PROJECT, source: 'workspace-agent-folder', workspace: true, optional: true });

async function main(): Promise<void> {
  const skills = await benchSkillService(await benchEngine(), { clock });
  const r = rng(7);
  await skills.restoreLearnedSkills(Array.from({ length: N }, (_, i) => learnedRecord(i, r)));
  const root = mkdtempSync(path.join(os.tmpdir(), 'toolshed-pack-export-bench-'));
  const rows: Array<Record<string, unknown>> = [];
  try {
    const other = path.join(root, 'other');
    const otherFile = path.join(other, 'probe.skill.yaml');
    mkdirSync(other, { recursive: true });
    writeFileSync(otherFile, 'name: probe\ntrigger: probe the reload\nsteps:\n  - one\n');
    const exportedRoot = path.join(root, 'skills');
    const reloads = async (): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < 40; i++) {
        writeFileSync(otherFile, `name: probe\ntrigger: probe the reload ${i}\nsteps:\n  - one\n`);
        const start = performance.now();
        await skills.reloadFile(otherFile);
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b);
    };
    await skills.loadPacks([pack('other', other), pack('exported', exportedRoot)]);
    const before = await reloads();
    rows.push({
      case: `reloadFile of a pack skill with ${N.toLocaleString('en-US')} learned skills, no exported pack skill`,
      p50_ms: round(pct(before, 0.5)),
      p95_ms: round(pct(before, 0.95)),
    });

    const names = skills
      .learnedSkills()
      .slice(0, EXPORTED)
      .map((s) => s.name);
    const exportStart = performance.now();
    const report = await exportLearnedAsPack({ skills, counters: () => undefined, files: nodePackFolderWriter, now: clock.now() }, exportedRoot, names);
    const exportMs = performance.now() - exportStart;
    rows.push({
      case: `export ${EXPORTED} of ${N.toLocaleString('en-US')} learned skills as SKILL.md folders`,
      ms: round(exportMs, 0),
      written: report.written.length,
      skipped: report.skipped.length,
    });

    const loadStart = performance.now();
    await skills.loadPacks([pack('other', other), pack('exported', exportedRoot)]);
    const loadMs = performance.now() - loadStart;
    const retired = skills.learnedSkills().filter((s) => s.status === 'inactive').length;
    rows.push({ case: `load those ${EXPORTED} folders (parse, store, retire the learned copies)`, ms: round(loadMs, 0), retired, ok: retired === EXPORTED });

    const after = await reloads();
    // The retirement check alone (what every reload now adds), through the service's own object.
    const learned = (skills as unknown as { learned: { reconcileExported(): Promise<unknown[]> } }).learned;
    const checks: number[] = [];
    for (let i = 0; i < 40; i++) {
      const start = performance.now();
      await learned.reconcileExported();
      checks.push(performance.now() - start);
    }
    checks.sort((a, b) => a - b);
    rows.push({
      case: `the full retirement check (after loadPacks, or a reload of an exported file; ${N.toLocaleString('en-US')} learned, ${EXPORTED} exported pack skills)`,
      p50_ms: round(pct(checks, 0.5)),
      p95_ms: round(pct(checks, 0.95)),
    });
    rows.push({
      case: `reloadFile of a pack skill with ${N.toLocaleString('en-US')} learned skills, ${EXPORTED} of them retired by exported pack skills`,
      p50_ms: round(pct(after, 0.5)),
      p95_ms: round(pct(after, 0.95)),
      ratio_p50_vs_none: round(pct(after, 0.5) / Math.max(pct(before, 0.5), 1e-6), 2),
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
    await skills.dispose();
  }
  console.log(JSON.stringify({ title: 'Export learned skills as a skill pack', rows }));
}

void main();
