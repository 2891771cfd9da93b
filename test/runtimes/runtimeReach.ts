/**
 * The runtime alone, for the reach bench: N skills in a runtime's own user-level skill folder,
 * one real run of the runtime against the scripted model, and what its first model request
 * shows — which skills it *describes* (name and description), which it only names, and what the
 * listing costs (characters / 4 ≈ tokens) in every request. The skills come from the public pool
 * (bench/data/skills-at-scale), one per declared name (a folder holds one skill of a name), the
 * gold skills of the requests first; when the pool has fewer distinct names than N, synthetic
 * skills pad it and the result says how many.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readPool, skillFields } from '../../bench/skillsAtScaleData';
import type { ScaleRequest } from '../../bench/skillsAtScaleData';
import { killRuntimes, prepareRuntime, runPrepared, SKILL_FOLDERS } from './runtimeHarness';
import type { RuntimeName } from './runtimeHarness';
import { startScriptedModelServer } from './scriptedModelServer';
import { skillsShownInRequest } from './skillListing';
import type { SkillListing } from './skillListing';

/** Lower-case names, digits and dashes: a name every runtime accepts as a skill folder and name. */
const RUNTIME_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface ChosenSkills {
  /** Folder (= declared name) → SKILL.md text. */
  files: Map<string, string>;
  /** Pool id → the name it was written under (only the copy that was written). */
  nameById: Map<string, string>;
  /** Synthetic skills added because the pool has fewer usable names than asked. */
  synthetic: number;
}

/** `count` skills: every gold skill the requests name (first acceptable copy with a usable name), then the pool in a fixed pseudo-random order, then synthetic padding. */
export function chooseSkills(root: string, requests: readonly ScaleRequest[], count: number): ChosenSkills {
  const pool = readPool(root);
  const byId = new Map(pool.map((e) => [e.id, e]));
  const files = new Map<string, string>();
  const nameById = new Map<string, string>();
  const add = (id: string): boolean => {
    const entry = byId.get(id);
    if (!entry || files.size >= count) return false;
    const name = skillFields(entry.text).name.trim();
    if (!RUNTIME_NAME.test(name) || files.has(name)) return false;
    files.set(name, entry.text);
    nameById.set(id, name);
    return true;
  };
  for (const r of requests) for (const group of r.gold) group.some(add);
  const key = (id: string) => createHash('sha1').update(id).digest('hex');
  for (const id of pool.map((e) => e.id).sort((a, b) => (key(a) < key(b) ? -1 : 1))) add(id);
  let synthetic = 0;
  for (let i = 0; files.size < count; i++) {
    const name = `synthetic-skill-${String(i).padStart(5, '0')}`;
    files.set(name, `---\nname: ${name}\ndescription: Synthetic padding skill ${i} for a large library; it serves no real task.\n---\n# ${name}\n`);
    synthetic++;
  }
  return { files, nameById, synthetic };
}

export interface RuntimeAloneResult {
  runtime: RuntimeName;
  skills: number;
  synthetic: number;
  listing: SkillListing;
  /** Skills of the library (not the runtime's own built-in ones) described / named only. */
  library: { described: string[]; namedOnly: number };
  /** ≈ tokens of the skill listing in every request (chars / 4). */
  listingTokens: number;
  /** Characters of the whole first request body. */
  requestChars: number;
  /** One-skill requests whose right skill (any acceptable copy written) the first request describes / only names. */
  oneSkill: { tasks: number; described: number; namedOnly: number };
}

/**
 * Runs `runtime` once with `skills` in its user-level skill folder and `prompt`, and reads the
 * skill listing of its first model request. The runtime's listing does not depend on the prompt
 * (checked in docs/harnesses.md), so one run answers for every request.
 */
export async function measureRuntimeAlone(
  runtime: RuntimeName,
  chosen: ChosenSkills,
  requests: readonly ScaleRequest[],
  prompt: string,
): Promise<RuntimeAloneResult> {
  const server = await startScriptedModelServer();
  const { home, workspace } = prepareRuntime(runtime, server, { trustWorkspace: true });
  try {
    const folder = path.join(home, SKILL_FOLDERS[runtime].user);
    for (const [name, text] of chosen.files) {
      mkdirSync(path.join(folder, name), { recursive: true });
      writeFileSync(path.join(folder, name, 'SKILL.md'), text);
    }
    const run = await runPrepared(runtime, server, prompt, { trustWorkspace: true }, home, workspace);
    const first = run.turns[0];
    if (!first) throw new Error(`${runtime} sent no model request (exit ${run.exitCode}): ${run.stderr.slice(-2000)}`);
    const listing = skillsShownInRequest(runtime, first);
    const described = new Set(listing.described);
    const named = new Set(listing.namedOnly);
    const one = requests.filter((r) => r.kind === 'one');
    const names = (r: ScaleRequest) => (r.gold[0] ?? []).flatMap((id) => chosen.nameById.get(id) ?? []);
    return {
      runtime,
      skills: chosen.files.size,
      synthetic: chosen.synthetic,
      listing,
      library: {
        described: listing.described.filter((n) => chosen.files.has(n)),
        namedOnly: listing.namedOnly.filter((n) => chosen.files.has(n)).length,
      },
      listingTokens: Math.round(listing.chars / 4),
      requestChars: first.raw.length,
      oneSkill: {
        tasks: one.length,
        described: one.filter((r) => names(r).some((n) => described.has(n))).length,
        namedOnly: one.filter((r) => !names(r).some((n) => described.has(n)) && names(r).some((n) => named.has(n))).length,
      },
    };
  } finally {
    killRuntimes();
    await server.close();
    rmSync(path.dirname(home), { recursive: true, force: true });
  }
}
