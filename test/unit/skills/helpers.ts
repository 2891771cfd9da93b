import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { skillsConfigSchema } from '../../../src/core/config/settingsSchema';
import type { SkillsConfig } from '../../../src/core/config/settingsSchema';
import { lengthTokenCounter, MemoryEventSink, MemoryLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { nodeFileSystem } from '../../../src/core/platform/nodeFileSystem';
import type { Clock, TokenCounter } from '../../../src/core/platform/ports';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import type { FtsEngine, SqlEngine } from '../../../src/core/sql/sqlEngine';
import { createSkillService } from '../../../src/core/skills/skillService';
import type { SkillService } from '../../../src/core/skills/skillService';
import type { ResolvedSkillPack } from '../../../src/core/skills/packs/skillPackSources';

const engines = new Map<string, Promise<SqlEngine>>();

export function engine(allowed: FtsEngine[] = ['fts5', 'fts4', 'none']): Promise<SqlEngine> {
  const key = allowed.join(',');
  let e = engines.get(key);
  if (!e) {
    e = loadSqlEngine({ allowedFts: allowed });
    engines.set(key, e);
  }
  return e;
}

export class TestClock implements Clock {
  constructor(public t = 1_700_000_000_000) {}
  now(): number {
    return this.t;
  }
  tick(ms = 1000): void {
    this.t += ms;
  }
}

export interface Harness {
  service: SkillService;
  events: MemoryEventSink;
  logger: MemoryLogger;
  bytes: MemoryByteStore;
  clock: TestClock;
}

export async function makeService(
  options: {
    config?: Partial<SkillsConfig>;
    bytes?: MemoryByteStore;
    env?: Record<string, string>;
    fts?: FtsEngine[];
    tokenCounter?: TokenCounter;
    clock?: TestClock;
  } = {},
): Promise<Harness> {
  const events = new MemoryEventSink();
  const logger = new MemoryLogger();
  const bytes = options.bytes ?? new MemoryByteStore();
  const clock = options.clock ?? new TestClock();
  const service = await createSkillService({
    engine: await engine(options.fts),
    store: bytes,
    config: skillsConfigSchema.parse({ includeAgentSkillFolders: false, ...options.config }),
    logger,
    events,
    clock,
    tokenCounter: options.tokenCounter ?? lengthTokenCounter,
    fs: nodeFileSystem,
    env: options.env ?? {},
    autoSaveDelayMs: 0,
  });
  return { service, events, logger, bytes, clock };
}

export function tempDir(prefix = 'toolshed-skills-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes `files` (relative path → content) under `root`. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(root, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

export function pack(name: string, root: string, extra: Partial<ResolvedSkillPack> = {}): ResolvedSkillPack {
  return {
    name,
    root,
    scopeMode: 'global',
    enabled: true,
    updateExistingPackSkills: true,
    pinnedSkillNames: [],
    source: 'settings',
    workspace: false,
    optional: false,
    ...extra,
  };
}

export function stepSkill(name: string, trigger: string, steps: string[] = ['Do the thing.'], extra = ''): string {
  return `name: ${name}\ntrigger: ${JSON.stringify(trigger)}\nsteps:\n${steps.map((s) => `  - ${JSON.stringify(s)}`).join('\n')}\n${extra}`;
}

export const ctx = { includeWorkspacePacks: true };
