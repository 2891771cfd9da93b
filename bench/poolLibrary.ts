/**
 * The libraries of the real-pool size rows (bench/skillPoolScaleBench.ts, bench/hostSkillScaleBench.ts):
 * `size` files of the skills-at-scale pool — a seeded sample in pool order up to the pool's size,
 * above it the whole pool plus a second copy of some of its files under another name (a fork's
 * copy: same body, name suffixed `-fork`). Real bodies and the pool's own duplicates throughout.
 */
import { rng } from './benchMath';
import type { PoolEntry } from './skillsAtScaleData';

/** The pool entry again under a suffixed name (a fork's copy), or undefined when its name line is not a plain one. */
function renamedCopy(entry: PoolEntry): PoolEntry | undefined {
  const fm = /^---\r?\n[\s\S]*?\r?\n---/.exec(entry.text);
  if (!fm) return undefined;
  const nameLine = /^name:[ \t]*(["']?)([A-Za-z0-9][A-Za-z0-9 _.-]*?)\1[ \t]*$/m;
  if (!nameLine.test(fm[0])) return undefined;
  const head = fm[0].replace(nameLine, (_line, quote: string, name: string) => `name: ${quote}${name}-fork${quote}`);
  return { ...entry, repo: `${entry.repo}-fork`, id: `${entry.id}#fork`, text: head + entry.text.slice(fm[0].length) };
}

/** The library of `size` files (see the file comment), in pool order. */
export function librarySample(pool: readonly PoolEntry[], size: number): PoolEntry[] {
  const random = rng(2026);
  const order = pool.map((_, i) => ({ i, key: random() }));
  if (size <= pool.length) {
    const chosen = new Set(
      order
        .sort((a, b) => a.key - b.key)
        .slice(0, size)
        .map((o) => o.i),
    );
    return pool.filter((_, i) => chosen.has(i));
  }
  const copies: PoolEntry[] = [];
  for (const { i } of order.sort((a, b) => a.key - b.key)) {
    if (pool.length + copies.length >= size) break;
    const copy = renamedCopy(pool[i]!);
    if (copy) copies.push(copy);
  }
  return [...pool, ...copies];
}

/** How a row names its library. */
export function libraryLabel(size: number, poolSize: number): string {
  if (size === poolSize) return `whole pool (${size} files)`;
  return size > poolSize ? `${size} files (pool + ${size - poolSize} renamed copies)` : `${size} files`;
}
