import * as YAML from 'yaml';

/**
 * Linear-time structure checks for parsed skill documents. The `yaml` library's own
 * `uniqueKeys` check compares every key with every other key of a mapping (a minute for 50,000
 * keys), and `toJS` happily builds cyclic values from self-referencing aliases (`a: &a [*a]`),
 * which overflow the stack of anything that walks them later (hashing, JSON). Both are checked
 * here once per document instead.
 */

/** Deepest nesting of a skill value we accept (real skills nest 3–4 levels). */
const MAX_VALUE_DEPTH = 64;

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
        // The first occurrence wins, like the "first definition" everywhere else. An empty key
        // (`: value`) is '' here, as in the parsed value.
        if (!YAML.isScalar(pair.key)) continue;
        const name = pair.key.value === null ? '' : String(pair.key.value);
        if (!byKey.has(name)) byKey.set(name, pair as YAML.Pair);
      }
      this.cache.set(map, byKey);
    }
    return byKey.get(key);
  }
}

/**
 * Characters `value` holds once every YAML alias is expanded: keys and strings count their
 * length each time they are reached (at least 1, so every node visited counts), other scalars
 * their printed length. Counting stops as soon as the total passes `limit`, so a value that
 * expands to gigabytes (one long string referenced many times) costs O(limit), never more;
 * the result is then some number above `limit`. The value must be acyclic (see unstorableValue).
 */
export function expandedChars(value: unknown, limit: number): number {
  let total = 0;
  // Frames walk a container one child at a time, so a long list costs nothing until visited.
  const frames: Array<{ children: unknown[]; next: number }> = [{ children: [value], next: 0 }];
  while (frames.length > 0 && total <= limit) {
    const frame = frames[frames.length - 1] as { children: unknown[]; next: number };
    if (frame.next >= frame.children.length) {
      frames.pop();
      continue;
    }
    const node = frame.children[frame.next++];
    if (typeof node === 'string') total += Math.max(1, node.length);
    else if (Array.isArray(node)) {
      total += 1;
      frames.push({ children: node, next: 0 });
    } else if (typeof node === 'object' && node !== null) {
      const keys = Object.keys(node);
      total += 1;
      for (const key of keys) total += Math.max(1, key.length);
      frames.push({ children: keys.map((key) => (node as Record<string, unknown>)[key]), next: 0 });
    } else total += Math.max(1, String(node).length);
  }
  return total;
}
