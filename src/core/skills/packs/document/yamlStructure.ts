import * as YAML from 'yaml';

/**
 * Linear-time structure checks for parsed skill documents. The `yaml` library's own
 * `uniqueKeys` check compares every key with every other key of a mapping (a minute for 50,000
 * keys), and `toJS` happily builds cyclic values from self-referencing aliases (`a: &a [*a]`),
 * which overflow the stack of anything that walks them later (hashing, JSON). Both are checked
 * here once per document instead.
 */

/** Deepest nesting of a skill value we accept (real skills nest 3–4 levels). */
export const MAX_VALUE_DEPTH = 64;

/** Key nodes that repeat an earlier key of the same mapping (each mapping checked with a Set). */
export function duplicateKeyNodes(doc: YAML.Document.Parsed): YAML.Node[] {
  const duplicates: YAML.Node[] = [];
  YAML.visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!YAML.isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (seen.has(key)) duplicates.push(pair.key);
        else seen.add(key);
      }
    },
  });
  return duplicates;
}

/**
 * Why a value cannot be stored as JSON, or undefined when it can: a cycle (a YAML alias that
 * contains itself) or nesting deeper than MAX_VALUE_DEPTH. Shared sub-values (aliases used
 * twice) are fine and are walked once.
 */
export function unstorableValue(value: unknown): string | undefined {
  const onPath = new Set<object>();
  const finished = new Set<object>();
  const walk = (node: unknown, depth: number): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    if (onPath.has(node)) return 'a YAML alias refers to itself (a cycle); skill values must be finite';
    if (finished.has(node)) return undefined;
    if (depth > MAX_VALUE_DEPTH) return `values are nested more than ${MAX_VALUE_DEPTH} levels deep`;
    onPath.add(node);
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) {
      const problem = walk(child, depth + 1);
      if (problem) return problem;
    }
    onPath.delete(node);
    finished.add(node);
    return undefined;
  };
  return walk(value, 0);
}

/** Finds a mapping's pair by key in O(1) after one pass (per mapping, cached). */
export class PairLookup {
  private readonly cache = new WeakMap<YAML.YAMLMap, Map<string, YAML.Pair>>();

  pair(map: YAML.YAMLMap, key: string): YAML.Pair | undefined {
    let byKey = this.cache.get(map);
    if (!byKey) {
      byKey = new Map();
      for (const pair of map.items) {
        // The first occurrence wins, like the "first definition" everywhere else.
        if (YAML.isScalar(pair.key) && !byKey.has(String(pair.key.value))) byKey.set(String(pair.key.value), pair as YAML.Pair);
      }
      this.cache.set(map, byKey);
    }
    return byKey.get(key);
  }
}
