import type { BudgetResult, SafeSkill } from './render/skillRendering';
import type { SkillRecord } from './skillSchema';
import type { StoreFilter } from './store/skillStore';
import { pickClusterSiblings } from './skillClusters';

/**
 * Pre-flight cluster expansion over the store and the renderer: the best-ranked
 * injected skill with a cluster brings up to `max` siblings, but only into room the matches left
 * in the budget — the expanded block must render with nothing compressed, dropped or truncated,
 * else fewer siblings are tried, and with none fitting the plain result stands. At most `max`
 * (≤ 5) extra renders; deterministic for the same store and query.
 */

export interface ClusterExpansionDeps {
  /** Visible skills with a cluster (the request's filter: scope, trust, status, model-invocable). */
  clustered(filter: StoreFilter): Array<{ name: string; cluster: unknown }>;
  byNames(names: readonly string[], filter: StoreFilter): SkillRecord[];
  /** Leaves out skills a request may not use although the filter passes them (stale learned skills). */
  usable(records: readonly SkillRecord[]): SkillRecord[];
  /** Renders records within the budget (made safe: redacted, tool-gated). */
  render(records: readonly SkillRecord[]): Promise<{ safe: SafeSkill[]; rendered: BudgetResult }>;
}

export interface ClusterExpansionResult {
  cluster: string;
  /** The injected records: the matches, then the siblings that fit. */
  records: SkillRecord[];
  safe: SafeSkill[];
  rendered: BudgetResult;
  added: string[];
}

export async function expandWithCluster(
  deps: ClusterExpansionDeps,
  matches: readonly SkillRecord[],
  request: { filter: StoreFilter; max: number; searchOrder: readonly string[]; exclude: Iterable<string> },
): Promise<ClusterExpansionResult | undefined> {
  if (request.max <= 0 || matches.length === 0) return undefined;
  const picked = pickClusterSiblings(
    matches.map((record) => ({ name: record.name, cluster: record.meta.cluster })),
    deps.clustered(request.filter),
    { max: request.max, searchOrder: request.searchOrder, exclude: request.exclude },
  );
  if (!picked) return undefined;
  const found = new Map(deps.usable(deps.byNames(picked.added, request.filter)).map((record) => [record.name, record]));
  const siblings = picked.added.map((name) => found.get(name)).filter((record): record is SkillRecord => record !== undefined);
  for (let count = siblings.length; count > 0; count--) {
    const records = [...matches, ...siblings.slice(0, count)];
    const { safe, rendered } = await deps.render(records);
    if (!rendered.compressed && !rendered.truncated && rendered.included.length === records.length) {
      return { cluster: picked.cluster, records, safe, rendered, added: records.slice(matches.length).map((record) => record.name) };
    }
  }
  return undefined;
}
