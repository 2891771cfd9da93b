import { redact } from '../privacy/redaction';
import type { SkillFinder } from './skillFinder';
import type { SkillAnswerText } from './skillAnswerText';
import { answerGate, requestAdjuster, storeFilter, type QueryDeps } from './skillQueries';
import type { SkillRequestContext } from './skillRequestContext';
import { skillListInputSchema, skillSearchInputSchema } from './skillToolSchemas';
import type { SkillListOutput, SkillSearchOutput } from './skillToolSchemas';
import { suggestedTools } from './suggestedTools';
import { markStart } from '../platform/startTrace';

/**
 * Browsing the library: `skill_search` (ranked hits) and `skill_list` (pages), names and one-line
 * triggers only, never a body; what puts skills in front of the model is `SkillQueries`
 * (skillQueries.ts), whose ranking and answer text these share. Scope, trust and status are
 * enforced as there, and every string returned is redacted and tool-gated.
 */
export class SkillBrowsing {
  constructor(
    private readonly deps: Pick<QueryDeps, 'store' | 'events' | 'adjuster'>,
    private readonly shared: { finder: SkillFinder; text: SkillAnswerText },
  ) {}

  async search(rawInput: unknown, ctx: SkillRequestContext): Promise<SkillSearchOutput> {
    const input = skillSearchInputSchema.parse(rawInput);
    const filter = storeFilter(ctx, { taskType: input.task_type });
    markStart('browse:rank');
    const { hits, effective, note } = await this.shared.finder.rank(
      input.query,
      input.search_type,
      filter,
      input.limit,
      requestAdjuster(this.deps.adjuster?.(), ctx),
    );
    markStart('browse:ranked');
    const gate = answerGate(ctx);
    const clean = (text: string) => this.shared.text.clean(text, gate);
    // Logged like every output: redacted and tool-gated (a query may hold a secret or a denied name).
    this.deps.events.emit({
      type: 'skill_search_query',
      payload: {
        query: gate.text(redact(input.query)),
        requested_search_type: input.search_type,
        effective_search_type: effective,
        results_count: hits.length,
      },
    });
    const output: SkillSearchOutput = {
      skills: hits.map((hit) => ({
        name: clean(hit.name),
        title: clean(hit.title),
        trigger: this.shared.text.cleanShort(hit.trigger, 300, gate),
        task_type: hit.task_type,
        score: hit.score,
        ...(hit.relevance === undefined ? {} : { relevance: hit.relevance }),
        ...(hit.nearCopies ? { near_copies: hit.nearCopies.map(clean) } : {}),
      })),
      query: clean(input.query),
      search_type: effective,
    };
    if (note) output.note = clean(note);
    const suggested = suggestedTools(
      this.deps.store.byNames(
        hits.map((hit) => hit.name),
        filter,
      ),
      gate,
    );
    if (suggested.length) output.suggested_tools = suggested;
    markStart('browse:done');
    return output;
  }

  async list(rawInput: unknown, ctx: SkillRequestContext): Promise<SkillListOutput> {
    const input = skillListInputSchema.parse(rawInput ?? {});
    const filter = storeFilter(ctx, { taskType: input.task_type, origin: input.origin, scopeMode: input.scope });
    const { total, rows } = this.deps.store.page(filter, (input.page - 1) * input.page_size, input.page_size);
    const gate = answerGate(ctx);
    const totalPages = Math.max(1, Math.ceil(total / input.page_size));
    this.deps.events.emit({
      type: 'skill_list',
      payload: {
        filters: { task_type: input.task_type, origin: input.origin, scope: input.scope, page: input.page, page_size: input.page_size },
        returned_count: rows.length,
      },
    });
    return {
      skills: rows.map((r) => ({
        name: this.shared.text.clean(r.name, gate),
        title: this.shared.text.clean(r.title, gate),
        trigger: this.shared.text.cleanShort(r.trigger, 120, gate),
        task_type: r.task_type,
        origin: r.origin,
      })),
      page: input.page,
      page_size: input.page_size,
      total,
      total_pages: totalPages,
      has_more: input.page < totalPages,
    };
  }
}
