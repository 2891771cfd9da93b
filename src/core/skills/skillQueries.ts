import type { SkillsConfig } from '../config/settingsSchema';
import { hiddenSkillReason } from '../trust/restrictedMode';
import type { Clock, EventSink, TokenCounter } from '../platform/ports';
import { renderPromptBlock } from '../privacy/promptBlocks';
import { SkillFinder, type SkillFinderDeps } from './skillFinder';
import type { HitAdjuster } from './skillFinder';
import { INJECTION_WRAPPER, makeSafe, RAW_WRAPPER, renderWithinBudget, structuredSkill } from './render/skillRendering';
import { summarizeWithinBudget } from './render/modelSummary';
import type { SkillRecord } from './skillSchema';
import type { SkillStore, StoreFilter } from './store/skillStore';
import { skillGetInputSchema } from './skillToolSchemas';
import type { SkillGetOutput } from './skillToolSchemas';
import { ToolReferenceGate } from './render/toolReferenceGate';
import type { SkillRequestContext, SkillScoreAdjuster } from './skillRequestContext';
import { suggestedTools } from './suggestedTools';
import { expandWithCluster } from './clusterExpansion';
import { capSkills, gateSkills, rankedSkills } from './relevantSkills';
import type { RankedSkill, RelevantRequest, RelevantResult, SelectionCandidateRow } from './relevantSkills';
import { nativeSkillReason } from './packs/nativeAgentSkills';
import { retiredSkillReason } from './retiredSkills';
import { shorten, SkillAnswerText } from './skillAnswerText';
import type { ClusterExpansionDeps } from './clusterExpansion';
import type { AnswerVetting } from './earlyAnswers';

/**
 * Skills put in front of the model: `skill_get` (bodies within a budget), the bounded
 * `<skill_directory>`, pre-flight `get_relevant`, the candidates of active-skill selection and
 * cluster siblings. Browsing the library (`skill_search`, `skill_list`: names and one-line
 * triggers, no body) is `SkillBrowsing` (skillBrowsing.ts). Every one enforces scope, trust
 * (workspace packs) and status (in SQL, or in the store's in-memory mirror for searches), and
 * every string it returns is redacted and tool-gated.
 */

interface DirectoryEntry {
  name: string;
  title: string;
  trigger: string;
  task_type: string;
  pinned: boolean;
}

export interface DirectoryResult {
  /** The `<skill_directory>` block, or '' when disabled/empty. */
  text: string;
  entries: DirectoryEntry[];
  count: number;
}

export interface QueryDeps {
  store: SkillStore;
  config: () => SkillsConfig;
  events: EventSink;
  tokenCounter: TokenCounter;
  clock: Clock;
  /** Pinned names of the loaded packs, with whether the pack is workspace-sourced. */
  packPins: () => Array<{ names: readonly string[]; workspace: boolean }>;
  /** Re-ranking of full-text hits (learning); none = relevance only. */
  adjuster?: () => SkillScoreAdjuster | undefined;
  vectors?: SkillFinderDeps['vectors'];
  /** Asked before skills are returned while a load is under way (earlyAnswers.ts). */
  vetting?: AnswerVetting;
}

export class SkillQueries {
  /** Ranking, shared with `SkillBrowsing` (skillBrowsing.ts). */
  readonly finder: SkillFinder;
  /** Redacted, tool-gated answer text (its redaction cache shared with `SkillBrowsing`). */
  readonly text: SkillAnswerText;

  constructor(private readonly deps: QueryDeps) {
    this.finder = new SkillFinder({ store: deps.store, vectors: deps.vectors, vetting: deps.vetting });
    this.text = new SkillAnswerText(() => deps.config().redactPii);
  }

  async get(rawInput: unknown, ctx: SkillRequestContext): Promise<SkillGetOutput> {
    const input = skillGetInputSchema.parse(rawInput);
    const names = [...new Set(input.names.map((n) => n.trim()))];
    const gate = answerGate(ctx);
    const visible = storeFilter(ctx, { activeOnly: false });
    const records = this.deps.store.byNames(names, visible);
    // A name no stored skill answers may be a skill added since the last load: that answer waits for it.
    await this.deps.vetting?.vet(() => records, names.length - records.length);
    const byName = new Map(records.map((r) => [r.name, r]));
    const found: SkillRecord[] = [];
    const missing: NonNullable<SkillGetOutput['missing']> = [];
    // The adjuster also vets exact-name fetches: a learned skill whose citations went stale is not returned.
    const usable = this.deps.adjuster?.() ? new Set(this.usable(records, ctx).map((r) => r.name)) : undefined;
    for (const name of names) {
      const record = byName.get(name);
      if (ctx.retiredNames?.has(name)) missing.push({ name: this.text.clean(name, gate), reason: retiredSkillReason(), suggestions: [] });
      else if (record && usable && !usable.has(record.name))
        missing.push({
          name: this.text.clean(name, gate),
          reason: 'stale: a tool or file it relies on is gone; review it in the Skill Directory',
          suggestions: [],
        });
      else if (record && record.status === 'active') found.push(record);
      else if (record) missing.push({ name: this.text.clean(name, gate), reason: this.text.clean(`inactive: ${record.status_reason}`, gate), suggestions: [] });
      else if (!ctx.includeWorkspacePacks && this.deps.store.get(name)?.workspace)
        missing.push({ name: this.text.clean(name, gate), reason: hiddenSkillReason(), suggestions: [] });
      else if (ctx.nativeSkillNames?.has(name)) missing.push({ name: this.text.clean(name, gate), reason: nativeSkillReason(), suggestions: [] });
      else
        missing.push({
          name: this.text.clean(name, gate),
          reason: 'unknown skill',
          suggestions: this.finder.closestNames(name, storeFilter(ctx)).map((n) => this.text.clean(n, gate)),
        });
    }
    const safe = found.map((r) => makeSafe(r, { gate, redact: this.deps.config().redactPii }));
    const rendered = await renderWithinBudget(
      safe,
      input.max_tokens,
      this.deps.tokenCounter,
      input.format === 'injection' ? INJECTION_WRAPPER : RAW_WRAPPER,
      this.text.reSafe(found, gate),
    );
    this.deps.store.recordUsage(
      rendered.included.map((i) => found[i.index]).filter((r): r is SkillRecord => r !== undefined),
      this.deps.clock.now(),
    );
    const output: SkillGetOutput = {
      skills: rendered.included.map(({ view }) => structuredSkill(view)),
      formatted_context: rendered.text,
    };
    const suggested = suggestedTools(
      rendered.included.map((i) => found[i.index]).filter((r): r is SkillRecord => r !== undefined),
      gate,
    );
    if (suggested.length) output.suggested_tools = suggested;
    if (missing.length) {
      output.missing = missing;
      output.message = missing
        .map((m) =>
          m.reason === 'unknown skill'
            ? `Unknown skill "${m.name}".${m.suggestions.length ? ` Closest known names: ${m.suggestions.join(', ')}.` : ''} Use skill_search to find skills by what they do.`
            : `Skill "${m.name}" is not available (${m.reason}).`,
        )
        .join(' ');
    }
    this.deps.events.emit({
      type: 'skill_get',
      payload: { names: input.names, returned_count: output.skills.length, max_tokens: input.max_tokens, final_tokens_est: rendered.finalTokens },
    });
    return output;
  }

  /** The bounded `<skill_directory>` block: pinned first, then recent (or top) skills. */
  async directory(ctx: SkillRequestContext): Promise<DirectoryResult> {
    const settings = this.deps.config().directory;
    const empty: DirectoryResult = { text: '', entries: [], count: 0 };
    if (!this.deps.config().enabled || !settings.enabled || settings.maxEntries <= 0) return empty;
    const filter = storeFilter(ctx, { modelInvocableOnly: true });
    const pinnedNames = [
      ...this.deps
        .packPins()
        .filter((p) => ctx.includeWorkspacePacks || !p.workspace)
        .flatMap((p) => p.names),
      ...(ctx.pinnedNames ?? []),
    ];
    const pinnedRecords = this.deps.store.byNames([...new Set(pinnedNames)], filter);
    const order = new Map(pinnedNames.map((n, i) => [n, i]));
    pinnedRecords.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
    const chosen = pinnedRecords.slice(0, settings.maxEntries);
    const taken = new Set(chosen.map((r) => r.name));
    if (chosen.length < settings.maxEntries) {
      const more = this.deps.store.top(filter, settings.selectionStrategy === 'pinned_then_recent' ? 'recent' : 'top', settings.maxEntries + taken.size);
      for (const record of more) {
        if (chosen.length >= settings.maxEntries) break;
        if (!taken.has(record.name)) {
          chosen.push(record);
          taken.add(record.name);
        }
      }
    }
    const gate = answerGate(ctx);
    const fields = new Set(settings.includeFields);
    const entries = chosen.map((r) => ({
      name: this.text.clean(r.name, gate),
      title: this.text.clean(r.title, gate),
      trigger: this.text.cleanShort(r.trigger, 120, gate),
      task_type: r.task_type,
      pinned: order.has(r.name),
    }));
    const lines = entries.map((e) => {
      const details = [fields.has('title') ? e.title : '', fields.has('trigger') ? e.trigger : ''].filter(Boolean).join(': ');
      return `- ${fields.has('name') || !details ? e.name : ''}${fields.has('task_type') ? ` [${e.task_type}]` : ''}${details ? ` — ${details}` : ''}`;
    });
    const text = entries.length
      ? renderPromptBlock('skill_directory', ['Known skills (use skill_get by name; use skill_search for discovery):', ...lines])
      : '';
    this.deps.events.emit({ type: 'skill_directory_rendered', payload: { count: entries.length } });
    return { text, entries, count: entries.length };
  }

  /** Pre-flight retrieval: ranked top-k, scope/status filter, budgeted block. */
  async getRelevant(request: RelevantRequest, ctx: SkillRequestContext): Promise<RelevantResult> {
    const config = this.deps.config();
    const topK = request.top_k ?? config.topK;
    const budget = request.max_tokens ?? config.maxTokens;
    const none: RelevantResult = {
      text: '',
      skills: [],
      top_k_used: topK,
      raw_tokens_est: 0,
      final_tokens_est: 0,
      was_summarized: false,
      search_type: 'none',
      omitted: [],
      cluster_siblings: [],
      suggested_tools: [],
      relevance: {},
      ranked: [],
    };
    if (!config.enabled || topK <= 0 || !request.task.trim()) return none;
    const filter = storeFilter(ctx, { taskType: request.task_type, modelInvocableOnly: true });
    const excluded = new Set(request.exclude ?? []);
    const found = await this.finder.rank(request.task, 'fts', filter, topK + excluded.size, requestAdjuster(this.deps.adjuster?.(), ctx));
    // Relevance gate (toolshed.skills.minRelevance and the relative cut): below it nothing is
    // injected. Pinned skills are already in the prompt and set no bar for the others.
    const { judged: considered, passed: hits } = gateSkills(
      found.hits.filter((h) => !excluded.has(h.name)),
      config.minRelevance,
    );
    const effective = found.effective;
    const records = this.deps.store.byNames(
      hits.map((h) => h.name),
      filter,
    );
    const byName = new Map(records.map((r) => [r.name, r]));
    let ordered = capSkills(hits, byName, topK);
    const gate = answerGate(ctx);
    const expansionDeps = this.expansionDeps(ctx, gate, budget);
    let { safe, rendered } = await expansionDeps.render(ordered);
    const reSafe = this.text.reSafe(ordered, gate);
    const cut = rendered.compressed || rendered.truncated;
    // Cluster siblings only take room the matches left (never when they were cut).
    const expansion = cut
      ? undefined
      : await expandWithCluster(expansionDeps, ordered, { filter, max: config.clusterExpansion, searchOrder: hits.map((h) => h.name), exclude: excluded });
    if (expansion) {
      ({ safe, rendered } = expansion);
      ordered = expansion.records;
      this.deps.events.emit({ type: 'skills_cluster_expanded', payload: { cluster_id: expansion.cluster, added_count: expansion.added.length } });
    }
    // Structured compression first; the model only condenses what that had to cut.
    const summary = cut && request.summarize ? await summarizeWithinBudget(safe, budget, this.deps.tokenCounter, request.summarize, reSafe) : undefined;
    const kept = summary ? safe.length : rendered.included.length;
    this.deps.store.recordUsage(ordered.slice(0, kept), this.deps.clock.now());
    const result: RelevantResult = {
      text: summary?.text ?? rendered.text,
      skills: summary ? safe.map((skill) => skill.name) : rendered.included.map((i) => i.view.name),
      top_k_used: topK,
      raw_tokens_est: rendered.rawTokens,
      final_tokens_est: summary?.tokens ?? rendered.finalTokens,
      was_summarized: cut,
      search_type: hits.length ? effective : 'none',
      omitted: safe.slice(kept).map((skill) => skill.name),
      cluster_siblings: expansion ? safe.slice(safe.length - expansion.added.length).map((skill) => skill.name) : [],
      suggested_tools: suggestedTools(ordered.slice(0, kept), gate),
      relevance: Object.fromEntries(hits.map((h) => [h.name, h.relevance ?? 1])),
      ranked: rankedSkills(considered, (name) => this.text.clean(name, gate)),
    };
    this.deps.events.emit({
      type: 'skills_retrieved',
      payload: {
        skill_count: result.skills.length,
        top_k_used: topK,
        raw_tokens_est: result.raw_tokens_est,
        final_tokens_est: result.final_tokens_est,
        was_summarized: result.was_summarized,
      },
    });
    return result;
  }

  /**
   * Cluster siblings of the active skills the model chose (`model` / `hybrid` selection): the
   * same bounded expansion as search pre-flight (`toolshed.skills.clusterExpansion`, from the
   * first chosen skill with a cluster), kept only when chosen + siblings render in skill_get's
   * injection format within `maxTokens` with nothing cut. Names to pass to `get` after `names`.
   */
  async clusterSiblings(
    names: readonly string[],
    request: { maxTokens: number; exclude: readonly string[]; searchOrder: readonly string[] },
    ctx: SkillRequestContext,
  ): Promise<string[]> {
    const filter = storeFilter(ctx, { modelInvocableOnly: true });
    const byName = new Map(this.deps.store.byNames(names, filter).map((r) => [r.name, r]));
    const chosen = names.map((name) => byName.get(name)).filter((r): r is SkillRecord => r !== undefined);
    const expansion = await expandWithCluster(this.expansionDeps(ctx, answerGate(ctx), request.maxTokens), chosen, {
      filter,
      max: this.deps.config().clusterExpansion,
      searchOrder: request.searchOrder,
      exclude: [...names, ...request.exclude],
    });
    if (!expansion) return [];
    this.deps.events.emit({ type: 'skills_cluster_expanded', payload: { cluster_id: expansion.cluster, added_count: expansion.added.length } });
    return expansion.added;
  }

  /**
   * Candidates for active-skill selection: names, one-line descriptions (redacted, tool-gated)
   * and absolute relevance of model-invocable skills in search order, below
   * `toolshed.skills.minRelevance` left out; `fillWithAll` (model-only selection: the model sees
   * every skill) keeps every search hit and appends every other skill (most used first) up to `limit`.
   */
  async selectionCandidates(
    task: string,
    limit: number,
    ctx: SkillRequestContext,
    fillWithAll = false,
    seen?: (ranked: RankedSkill[]) => void,
  ): Promise<SelectionCandidateRow[]> {
    const config = this.deps.config();
    if (!config.enabled || limit <= 0) return [];
    const filter = storeFilter(ctx, { modelInvocableOnly: true });
    const found = task.trim() ? (await this.finder.rank(task, 'fts', filter, limit)).hits : [];
    const { judged, passed } = gateSkills(found, config.minRelevance);
    if (seen) seen(rankedSkills(fillWithAll ? found : judged, (name) => this.text.clean(name, answerGate(ctx))));
    const rows: Array<{ name: string; trigger: string; title: string; relevance?: number; corroborated?: boolean }> = fillWithAll ? [...found] : passed;
    if (fillWithAll && rows.length < limit) {
      const taken = new Set(rows.map((r) => r.name));
      const filled: SkillRecord[] = [];
      for (const record of this.deps.store.top(filter, 'top', limit + taken.size)) {
        if (rows.length >= limit) break;
        if (!taken.has(record.name)) {
          rows.push({ ...record, relevance: 0 });
          filled.push(record);
        }
      }
      // The ranked ones were vetted by the finder; these are returned too (earlyAnswers.ts).
      await this.deps.vetting?.vet(() => filled);
    }
    const gate = answerGate(ctx);
    return rows.slice(0, limit).map((r) => ({
      name: this.text.clean(r.name, gate),
      key: r.name,
      description: this.text.clean(shorten(r.trigger || r.title, 200), gate),
      relevance: r.relevance ?? 1,
      ...(r.corroborated === false ? { corroborated: false as const } : {}),
    }));
  }

  // ── internals ───────────────────────────────────────────────────────────

  /** Store access and injection rendering (redacted, tool-gated, within `budget`) for cluster expansion. */
  private expansionDeps(ctx: SkillRequestContext, gate: ToolReferenceGate, budget: number): ClusterExpansionDeps {
    const redactPii = this.deps.config().redactPii;
    return {
      clustered: (f) => this.deps.store.clustered(f),
      byNames: (names, f) => this.deps.store.byNames(names, f),
      usable: (records) => this.usable(records, ctx),
      render: async (records) => {
        // Cluster siblings are returned too: vetted like the ranked skills (earlyAnswers.ts).
        await this.deps.vetting?.vet(() => records);
        const safe = records.map((r) => makeSafe(r, { gate, redact: redactPii }));
        return { safe, rendered: await renderWithinBudget(safe, budget, this.deps.tokenCounter, INJECTION_WRAPPER, this.text.reSafe(records, gate)) };
      },
    };
  }

  /** Records the adjuster lets a request use (all without one): a learned skill whose citations went stale is left out. */
  private usable(records: readonly SkillRecord[], ctx: SkillRequestContext): SkillRecord[] {
    const adjuster = this.deps.adjuster?.();
    if (!adjuster) return [...records];
    const kept = new Set(
      adjuster
        .adjust(
          records.map((r) => ({ name: r.name, task_type: r.task_type, score: 1 })),
          { query: '', ctx },
        )
        .map((a) => a.name),
    );
    return records.filter((r) => kept.has(r.name));
  }
}

/** The store filter a request context allows: its scope and trust, active skills, VS Code's native and retired skills left out. */
export function storeFilter(ctx: SkillRequestContext, extra: Partial<StoreFilter> = {}): StoreFilter {
  return {
    tenantId: ctx.scope?.tenantId,
    projectId: ctx.scope?.projectId,
    includeWorkspacePacks: ctx.includeWorkspacePacks,
    activeOnly: true,
    excludePackNames: ctx.nativeSkillNames,
    excludeNames: ctx.retiredNames,
    ...extra,
  };
}

/** The request's tool-reference gate: every string an answer returns passes it. */
export function answerGate(ctx: SkillRequestContext): ToolReferenceGate {
  return new ToolReferenceGate(ctx.toolGate, ctx.knownToolNames);
}

/** The score adjuster bound to this request (none when learning is off). */
export function requestAdjuster(adjuster: SkillScoreAdjuster | undefined, ctx: SkillRequestContext): HitAdjuster | undefined {
  return adjuster ? (hits, query) => adjuster.adjust(hits, { query, ctx }) : undefined;
}
