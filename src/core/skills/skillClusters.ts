/**
 * Clusters (docs/skills.md#clusters-of-skills): a pack skill's `cluster` field names the theme it
 * belongs to ("Browser Authentication"). Two uses, both pure and deterministic:
 * - pre-flight expansion: a top match brings up to N siblings of its cluster (bounded; the
 *   caller keeps them only when they fit what is left of the token budget);
 * - grouping for the Skill Directory view.
 * Labels compare trimmed, with runs of whitespace collapsed and case folded, so `Browser auth`
 * and ` browser  Auth ` are one cluster; the first label seen is the one shown.
 */

/** The most siblings one expansion may add, whatever the setting says (the setting's maximum). */
export const MAX_CLUSTER_EXPANSION = 5;
/** Longest label kept; a longer one is cut (labels are for people, not prose). */
const MAX_CLUSTER_LABEL = 100;

export interface Clustered {
  name: string;
  /** `meta.cluster` as stored (anything; only a non-empty string counts). */
  cluster: unknown;
}

/** The display label of a cluster value, or undefined when it is not a non-empty string. */
export function clusterLabel(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const label = value.replace(/\s+/g, ' ').trim().slice(0, MAX_CLUSTER_LABEL).trim();
  return label || undefined;
}

/** The comparison key of a cluster value (undefined when it has none). */
export function clusterKey(value: unknown): string | undefined {
  return clusterLabel(value)?.toLowerCase();
}

export interface ClusterExpansion {
  /** Label of the expanded cluster (the top hit's). */
  cluster: string;
  /** Sibling names to add, best first. */
  added: string[];
}

/**
 * Siblings of the best-ranked hit that has a cluster. `ranked` are the chosen hits in rank
 * order; `members` every skill the request may see in that cluster (any order); `searchOrder`
 * the full search ranking (siblings that also matched the query come first, in that order, the
 * rest by name); `exclude` names that must not be added (pinned, already injected).
 * Undefined when no hit has a cluster or nothing is left to add.
 */
export function pickClusterSiblings(
  ranked: readonly Clustered[],
  members: readonly Clustered[],
  options: { max: number; searchOrder?: readonly string[]; exclude?: Iterable<string> },
): ClusterExpansion | undefined {
  const max = Math.min(MAX_CLUSTER_EXPANSION, Math.max(0, Math.floor(options.max)));
  if (max === 0) return undefined;
  const top = ranked.find((hit) => clusterKey(hit.cluster) !== undefined);
  if (!top) return undefined;
  const key = clusterKey(top.cluster)!;
  const taken = new Set([...ranked.map((hit) => hit.name), ...(options.exclude ?? [])]);
  const position = new Map((options.searchOrder ?? []).map((name, i) => [name, i]));
  const siblings = [...new Set(members.filter((m) => clusterKey(m.cluster) === key && !taken.has(m.name)).map((m) => m.name))].sort(
    (a, b) => (position.get(a) ?? Infinity) - (position.get(b) ?? Infinity) || compareNames(a, b),
  );
  if (siblings.length === 0) return undefined;
  return { cluster: clusterLabel(top.cluster)!, added: siblings.slice(0, max) };
}

export interface ClusterGroup<T> {
  /** The label shown; undefined for skills without a cluster. */
  cluster: string | undefined;
  items: T[];
}

/**
 * Groups items by cluster: groups sorted by label (case-insensitive), the unclustered group
 * last, items keeping their given order inside a group.
 */
export function groupByCluster<T>(items: readonly T[], clusterOf: (item: T) => unknown): Array<ClusterGroup<T>> {
  const groups = new Map<string, ClusterGroup<T>>();
  const none: ClusterGroup<T> = { cluster: undefined, items: [] };
  for (const item of items) {
    const value = clusterOf(item);
    const key = clusterKey(value);
    if (key === undefined) {
      none.items.push(item);
      continue;
    }
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { cluster: clusterLabel(value)!, items: [] }));
    group.items.push(item);
  }
  const sorted = [...groups.entries()].sort(([a], [b]) => compareNames(a, b)).map(([, group]) => group);
  return none.items.length ? [...sorted, none] : sorted;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
