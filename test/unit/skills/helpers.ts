import { createHash } from 'node:crypto';
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { SkillsConfig } from '../../../src/core/config/settingsSchema';
import { MemoryEventSink, MemoryLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import type { ByteStore, Clock, TokenCounter } from '../../../src/core/platform/ports';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import type { SkillService, SkillServiceDeps } from '../../../src/core/skills/skillService';
import { folderPack } from '../../../src/core/skills/packs/skillPackSources';
import { parsedSkillOf } from '../../../src/core/skills/packs/document/parsedSkill';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { tempFolder } from '../../tempFolder';

let loaded: Promise<SqlEngine> | undefined;

/** One sql.js engine shared across tests (loading wasm takes a moment). */
export function engine(): Promise<SqlEngine> {
  loaded ??= loadSqlEngine();
  return loaded;
}

/**
 * The shared engine as a sql.js build without full-text modules (FTS3/4/5) would be: making a
 * full-text table fails with SQLite's "no such module". Ranked search must not notice.
 */
export async function engineWithoutFullText(): Promise<SqlEngine> {
  const { sql } = await engine();
  const refuse = (statement: string) => {
    const module = /USING\s+(fts\d)/i.exec(statement)?.[1];
    if (module) throw new Error(`no such module: ${module}`);
  };
  class WithoutFullText extends sql.Database {
    override run(statement: string, params?: Parameters<InstanceType<typeof sql.Database>['run']>[1]): this {
      refuse(statement);
      return super.run(statement, params) as this;
    }
    override exec(statement: string, params?: Parameters<InstanceType<typeof sql.Database>['exec']>[1]) {
      refuse(statement);
      return super.exec(statement, params);
    }
    override prepare(statement: string, params?: Parameters<InstanceType<typeof sql.Database>['prepare']>[1]) {
      refuse(statement);
      return super.prepare(statement, params);
    }
  }
  return { sql: Object.assign(Object.create(sql) as typeof sql, { Database: WithoutFullText }) };
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

export interface Harness<B extends ByteStore = MemoryByteStore> {
  service: SkillService;
  events: MemoryEventSink;
  logger: MemoryLogger;
  bytes: B;
  clock: TestClock;
}

/** A skill service whose events and log lines the test reads; in memory unless `bytes` is given. */
export async function makeService<B extends ByteStore = MemoryByteStore>(
  options: {
    config?: Partial<SkillsConfig>;
    bytes?: B;
    /** Another sql.js engine than the shared one. */
    engine?: SqlEngine;
    env?: Record<string, string>;
    tokenCounter?: TokenCounter;
    clock?: TestClock;
    forceRebuild?: boolean;
    shared?: SkillServiceDeps['shared'];
  } = {},
): Promise<Harness<B>> {
  const events = new MemoryEventSink();
  const logger = new MemoryLogger();
  const bytes = options.bytes ?? (new MemoryByteStore() as ByteStore as B);
  const clock = options.clock ?? new TestClock();
  const service = await createHeadlessSkillService({
    engine: options.engine ?? (await engine()),
    store: bytes,
    config: options.config,
    logger,
    events,
    clock,
    tokenCounter: options.tokenCounter,
    env: options.env,
    forceRebuild: options.forceRebuild,
    shared: options.shared,
  });
  return { service, events, logger, bytes, clock };
}

/**
 * Stores database bytes as a build that wrote them leaves them: with their SHA-256 beside them
 * (`<key>.checked`, persistentDatabase.ts). Bytes without it are read as damaged or foreign: the
 * skill store then reads every skill file again on its next load.
 */
export async function writeAsWritten(bytes: ByteStore, key: string, data: Uint8Array): Promise<void> {
  await bytes.write(key, data);
  await bytes.write(`${key}.checked`, new TextEncoder().encode(createHash('sha256').update(data).digest('hex')));
}

export function tempDir(prefix = 'toolshed-skills-'): string {
  return tempFolder(prefix);
}

/** Writes `files` (relative path → content) under `root`. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(root, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** A pack of one folder: global, enabled, from settings; `extra` overrides. */
export const pack = folderPack;

/** A stored learned skill `x` (global, active, no uses) for code that reads records; `fields` override. */
export function skillRecord(fields: Partial<SkillRecord> = {}): SkillRecord {
  const {
    nameGenerated: _generated,
    span: _span,
    nameSpan: _nameSpan,
    ...content
  } = parsedSkillOf({ name: 'x', trigger: 't', steps: ['s'], format: 'learned' as never });
  return {
    ...content,
    id: 'sk_x',
    origin: 'learned',
    origin_ref: '',
    content_hash: 'h',
    scope_mode: 'global',
    scope_tenant_id: '',
    scope_project_id: '',
    created_at: 0,
    updated_at: 0,
    last_used: 0,
    use_count: 0,
    resources: [],
    pack_name: '',
    workspace: false,
    source_file: '',
    source_line: 1,
    format: 'learned',
    status: 'active',
    status_reason: '',
    ...fields,
  };
}

export function stepSkill(name: string, trigger: string, steps: string[] = ['Do the thing.'], extra = ''): string {
  return `name: ${name}\ntrigger: ${JSON.stringify(trigger)}\nsteps:\n${steps.map((s) => `  - ${JSON.stringify(s)}`).join('\n')}\n${extra}`;
}

export const ctx = { includeWorkspacePacks: true };

/** Flips bits of one byte of `text` (its `at`-th character) where it occurs once in the file, as damage on disk would. */
export function flipInside(file: string, text: string, at: number, mask: number): void {
  const bytes = readFileSync(file);
  const where = bytes.indexOf(text);
  assert.ok(where >= 0 && bytes.indexOf(text, where + 1) < 0, `"${text}" occurs once in ${file}`);
  bytes[where + at]! ^= mask;
  writeFileSync(file, bytes);
}
