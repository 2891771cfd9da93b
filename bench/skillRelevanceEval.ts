/**
 * The skills relevance set run through pre-flight exactly as @toolshed runs it
 * (skillPreflight, the function the turn calls → search or hybrid selection → injection), with a scripted selection
 * model: an oracle that picks the right skill when it was offered and nothing otherwise, so the
 * counts show what the code decides, not how good a real model is.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { skillsConfigSchema } from '../src/core/config/settingsSchema';
import type { SkillsConfig } from '../src/core/config/settingsSchema';
import { lengthTokenCounter, nullEventSink, nullLogger } from '../src/core/platform/basicPorts';
import { MemoryByteStore } from '../src/core/platform/memoryByteStore';
import { nodeFileSystem } from '../src/core/platform/nodeFileSystem';
import type { ChatModelPort } from '../src/core/platform/chatTypes';
import { skillPreflight } from '../src/core/planner/turn/skillPreflight';
import { loadSqlEngine } from '../src/core/sql/sqlEngine';
import { folderPack } from '../src/core/skills/packs/skillPackSources';
import { createSkillService } from '../src/core/skills/skillService';
import type { SkillService } from '../src/core/skills/skillService';

export interface RelevanceCase {
  request: string;
  /** The one skill that applies, or null when none does. */
  gold: string | null;
  half: 'tune' | 'test';
}

export function readRelevanceSet(root: string): RelevanceCase[] {
  return readFileSync(path.join(root, 'bench', 'data', 'skill-relevance.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as RelevanceCase);
}

/** The built-in pack plus the public skills, in an in-memory store with the extension's defaults. */
export async function relevanceService(root: string, config: Partial<SkillsConfig> = {}): Promise<SkillService> {
  const engine = await loadSqlEngine({ wasmPath: path.join(root, 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm') });
  const service = await createSkillService({
    engine,
    store: new MemoryByteStore(),
    config: skillsConfigSchema.parse({ includeAgentSkillFolders: false, ...config }),
    logger: nullLogger,
    events: nullEventSink,
    clock: { now: () => Date.now() },
    tokenCounter: lengthTokenCounter,
    fs: nodeFileSystem,
    env: {},
    autoSaveDelayMs: 60_000,
  });
  const pack = (name: string, dir: string) => folderPack(name, path.join(root, dir));
  await service.loadPacks([pack('core', 'skill-packs/core'), pack('public', 'bench/data/public-skills')]);
  return service;
}

export interface TurnCounts {
  requests: number;
  /** No-skill requests: how many injected any skill. */
  noSkillInjected: number;
  noSkill: number;
  /** One-skill requests: how many injected the right one (among others or alone). */
  oneSkillRight: number;
  /** … and injected only the right one. */
  oneSkillOnlyRight: number;
  oneSkill: number;
  selectionRequests: number;
  injectedSkills: number;
}

/**
 * Runs each case through pre-flight in `mode`; any selection request is answered by the oracle
 * or, with `unusable`, by prose (the fallback a failed or garbled selection takes).
 */
export async function runPreflight(
  service: SkillService,
  cases: readonly RelevanceCase[],
  mode: 'search' | 'hybrid',
  answers: 'oracle' | 'unusable' = 'oracle',
): Promise<TurnCounts> {
  const counts = emptyCounts();
  const defaults = skillsConfigSchema.parse({});
  for (const c of cases) {
    let asked = 0;
    const oracle: ChatModelPort = {
      async *send(messages) {
        asked++;
        const prompt = messages[0]?.parts[0]?.kind === 'text' ? messages[0].parts[0].text : '';
        const offered = [...prompt.matchAll(/^- ([^:\n]+):/gm)].map((m) => m[1]);
        yield {
          kind: 'text',
          text: answers === 'unusable' ? 'Sure! The first skill looks useful.' : JSON.stringify({ skills: c.gold && offered.includes(c.gold) ? [c.gold] : [] }),
        };
      },
      countTokens: async (text) => Math.ceil(text.length / 4),
    };
    const port = skillPreflight(
      service,
      { includeWorkspacePacks: true },
      { ...defaults, selection: mode },
      { pinnedNames: [], countTokens: async (t) => Math.ceil(t.length / 4), chooser: { model: oracle }, signal: { isCancelled: false } },
    );
    countTurn(
      counts,
      c,
      (await port.preflight(c.request)).used.map((u) => u.name),
      asked,
    );
  }
  return counts;
}

export function emptyCounts(): TurnCounts {
  return { requests: 0, noSkillInjected: 0, noSkill: 0, oneSkillRight: 0, oneSkillOnlyRight: 0, oneSkill: 0, selectionRequests: 0, injectedSkills: 0 };
}

/** Adds one turn: the skills it injected and how many selection requests it made. */
export function countTurn(counts: TurnCounts, c: RelevanceCase, names: readonly string[], selectionRequests: number): void {
  counts.requests++;
  counts.selectionRequests += selectionRequests;
  counts.injectedSkills += names.length;
  if (c.gold === null) {
    counts.noSkill++;
    if (names.length) counts.noSkillInjected++;
  } else {
    counts.oneSkill++;
    if (names.includes(c.gold)) counts.oneSkillRight++;
    if (names.length === 1 && names[0] === c.gold) counts.oneSkillOnlyRight++;
  }
}

export function rates(counts: TurnCounts): Record<string, number> {
  const share = (a: number, b: number) => (b ? Math.round((a / b) * 1000) / 1000 : 0);
  return {
    no_skill_injection_rate: share(counts.noSkillInjected, counts.noSkill),
    one_skill_hit_rate: share(counts.oneSkillRight, counts.oneSkill),
    one_skill_only_right_rate: share(counts.oneSkillOnlyRight, counts.oneSkill),
    selection_requests_per_turn: share(counts.selectionRequests, counts.requests),
    injected_skills_per_turn: share(counts.injectedSkills, counts.requests),
  };
}
