/**
 * The skill library the reach bench and the hook's offer tuning (`bench/tuneOffers.ts`) put in
 * front of the runtimes: the skills-at-scale pool's real skills, one per usable declared name, the
 * requests' gold skills first, then the rest of the pool in a seeded order, then generated padding
 * to the size asked for.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { rng } from './benchMath';
import { skillFields } from './skillsAtScaleData';
import type { PoolEntry } from './skillsAtScaleData';

const SAFE_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface LibrarySkill {
  name: string;
  text: string;
}

/** The pool's skills with a usable, unique name (the first copy of a name wins, as a runtime keyed by name shows one). */
export function poolSkills(pool: readonly PoolEntry[]): { skills: LibrarySkill[]; nameOf: Map<string, string> } {
  const skills: LibrarySkill[] = [];
  const nameOf = new Map<string, string>();
  const seen = new Set<string>();
  for (const entry of pool) {
    const { name, description } = skillFields(entry.text);
    const clean = name.trim();
    if (!SAFE_NAME.test(clean) || !description.trim()) continue;
    nameOf.set(entry.id, clean);
    if (seen.has(clean)) continue;
    seen.add(clean);
    skills.push({ name: clean, text: entry.text });
  }
  return { skills, nameOf };
}

const WORDS = 'ledger orbit quartz meadow harbor signal lantern cobalt prairie tundra basalt willow canyon ember glacier'.split(' ');

/** A generated skill that shares no topic with the requests (to pad the library to its size). */
function paddingSkill(i: number): LibrarySkill {
  const w = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length] ?? 'x';
  const name = `zz-pad-${w(0)}-${w(1)}-${i}`;
  return { name, text: `---\nname: ${name}\ndescription: Catalogue the ${w(2)} ${w(3)} records of archive ${i}\n---\n# ${name}\nSort the ${w(4)} entries.\n` };
}

/** `size` skills: the gold skills of the requests first (so every task is answerable), then the pool in a seeded order, then padding. */
export function library(size: number, all: readonly LibrarySkill[], goldNames: ReadonlySet<string>): LibrarySkill[] {
  const gold = all.filter((s) => goldNames.has(s.name));
  const rest = all.filter((s) => !goldNames.has(s.name));
  const random = rng(2026);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  const chosen = [...gold, ...rest].slice(0, size);
  for (let i = 0; chosen.length < size; i++) chosen.push(paddingSkill(i));
  return chosen;
}

export function writeLibrary(folder: string, skills: readonly LibrarySkill[]): void {
  for (const skill of skills) {
    mkdirSync(path.join(folder, skill.name), { recursive: true });
    writeFileSync(path.join(folder, skill.name, 'SKILL.md'), skill.text);
  }
}
