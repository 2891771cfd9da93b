// What the bench/*Bench.ts files set up the same way: the sql.js engine from this checkout, a
// skill service with nothing around it, and learned skills as approval stores them.
import * as path from 'node:path';
import { MemoryByteStore } from '../src/core/platform/memoryByteStore';
import { createHeadlessSkillService } from '../src/core/skills/headlessSkillService';
import type { HeadlessSkillServiceOptions } from '../src/core/skills/headlessSkillService';
import type { SkillService } from '../src/core/skills/skillService';
import type { SkillRecord } from '../src/core/skills/skillSchema';
import { learnedRecord } from '../src/core/skills/store/skillRecords';
import type { LearnedSkillInput } from '../src/core/skills/store/skillRecords';
import { makeScope } from '../src/core/skills/store/skillScope';
import { loadSqlEngine } from '../src/core/sql/sqlEngine';
import type { SqlEngine } from '../src/core/sql/sqlEngine';

/** sql.js's WebAssembly file in this checkout (benches run from the repository root). */
const SQL_WASM = path.join(process.cwd(), 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm');

export function benchEngine(): Promise<SqlEngine> {
  return loadSqlEngine({ wasmPath: SQL_WASM });
}

/**
 * A skill service in memory that saves a minute after a change (never inside a timed loop);
 * `options` override any of that (a store on disk, a fixed clock, settings).
 */
export function benchSkillService(engine: SqlEngine, options: Partial<HeadlessSkillServiceOptions> = {}): Promise<SkillService> {
  return createHeadlessSkillService({ engine, store: new MemoryByteStore(), autoSaveDelayMs: 60_000, ...options });
}

/** The project every bench's project-scope learned skills belong to. */
export const BENCH_PROJECT = 'bench-project';

/** Learned skill `i` of a bench store, as approving a trace proposal stores it, in the bench project. */
export function benchLearnedRecord(i: number, skill: Pick<LearnedSkillInput, 'trigger' | 'steps' | 'extra'>, now: number): SkillRecord {
  return learnedRecord(
    {
      name: `learned.api.bench-${i}`,
      title: skill.trigger,
      description: 'Learned from use (trace).',
      task_type: 'api',
      tags: ['bench'],
      failure_modes: ['Never post tokens.'],
      origin_ref: `learning:pr_${i}`,
      scope_mode: 'project',
      ...skill,
    },
    makeScope('project', undefined, BENCH_PROJECT),
    now,
  );
}
