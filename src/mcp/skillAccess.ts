import { lengthTokenCounter } from '../core/platform/basicPorts';
import { passingGate } from '../core/skills/relevantSkills';
import { neutralizeBlockTags } from '../core/privacy/promptBlocks';
import { redact } from '../core/privacy/redaction';
import type { SkillService } from '../core/skills/skillService';
import type { SkillRequestContext } from '../core/skills/skillRequestContext';
import type { SkillRecord } from '../core/skills/skillSchema';
import { shorten } from '../core/skills/skillAnswerText';
import { readableSkillFiles, readSkillFile } from './skillFiles';
import type { SkillFileResult } from './skillFiles';
import type { McpSkillDecision } from './mcpDecisions';

/**
 * What the MCP server's tools and resources ask of the skills, over Toolshed's SkillService only:
 * its search (near-copies collapsed), its `get` (budget, redaction, tool gate) and its filters
 * (scope, workspace trust, retired skills, inactive skills), so no policy has a second copy here.
 * Each answer is built from what the service returned, never from a record it did not show.
 */

export interface McpSkillSourceOptions {
  skills: Pick<SkillService, 'search' | 'get' | 'list' | 'inspect'>;
  /**
   * Settles when `skills` and `requestContext` can answer: the server connects first and loads the
   * skills behind it, because a runtime sends its first model request as soon as the server has
   * said hello (Claude Code's `-p`, Codex), without the tools of a server still starting.
   */
  ready?: Promise<void>;
  /** Who is asking (scope, workspace trust, tool policy, retired skills); read on every request, so a change shows at once. */
  requestContext: () => SkillRequestContext;
  /** Absolute relevance below which a search hit is not returned (`toolshed.skills.minRelevance`), so an unrelated request gets none. */
  minRelevance: number;
  /** Where each search and read is recorded (the workspace's ledger journal); none = not recorded. */
  record?: (decision: McpSkillDecision) => void | Promise<void>;
}

export interface FoundSkill {
  name: string;
  description: string;
  relevance?: number;
  nearCopies?: string[];
}

export interface ReadSkill {
  name: string;
  description: string;
  /** The instructions as Markdown, within the token budget. */
  markdown: string;
  /** Its supporting files (paths relative to its folder), for `read_skill_file`. */
  files: string[];
}

/** How long a description `SkillService.list` returns (it shortens triggers to this). */
const LISTED_DESCRIPTION_CHARS = 120;

/** The longest skill body a `SKILL.md` resource carries (tokens); the same cap as a model's `read_skill` budget. */
export const MAX_SKILL_TOKENS = 6000;

export class McpSkillSource {
  constructor(private readonly options: McpSkillSourceOptions) {}

  async search(query: string, limit: number): Promise<FoundSkill[]> {
    await this.options.ready;
    const ctx = this.options.requestContext();
    const output = await this.options.skills.search({ query, limit }, ctx);
    const found = passingGate(output.skills, this.options.minRelevance, 0).map((hit) => ({
      name: hit.name,
      description: hit.trigger || hit.title || '',
      ...(hit.relevance === undefined ? {} : { relevance: hit.relevance }),
      ...(hit.near_copies?.length ? { nearCopies: hit.near_copies } : {}),
    }));
    await this.record({
      action: 'search',
      query,
      skills: found.map((s) => s.name),
      tokens: await estimateTokens(found.map((s) => `${s.name} ${s.description}`).join('\n')),
    });
    return found;
  }

  /** One skill's instructions, or the service's reason it is not available (unknown, retired, inactive, hidden). */
  async read(name: string, maxTokens: number, recorded = true): Promise<{ ok: true; skill: ReadSkill } | { ok: false; message: string }> {
    await this.options.ready;
    const ctx = this.options.requestContext();
    const output = await this.options.skills.get({ names: [name], format: 'raw', max_tokens: maxTokens }, ctx);
    const skill = output.skills[0];
    if (!skill) return { ok: false, message: output.message ?? `Skill "${safeText(name)}" is not available.` };
    if (recorded) await this.record({ action: 'read', skills: [skill.name], tokens: await estimateTokens(output.formatted_context) });
    return {
      ok: true,
      skill: {
        name: skill.name,
        // As `list` shortens it, so a skill's entry and its SKILL.md agree (SEP-2640 compares them).
        description: shorten(skill.trigger || skill.title || '', LISTED_DESCRIPTION_CHARS),
        markdown: output.formatted_context,
        files: (await readableFiles(this.visibleRecord(name))).map(safeText),
      },
    };
  }

  async readFile(name: string, file: string): Promise<SkillFileResult> {
    await this.options.ready;
    const ctx = this.options.requestContext();
    // Visible to this request? The exact-name search applies every filter the other answers do.
    const visible = await this.options.skills.search({ query: name, search_type: 'exact', limit: 1 }, ctx);
    const record = visible.skills.some((s) => s.name === name) ? this.visibleRecord(name) : undefined;
    if (!record) {
      const why = await this.read(name, 200, false);
      return { ok: false, message: why.ok ? `Skill "${safeText(name)}" has no files.` : why.message };
    }
    const result = await readSkillFile(record, file, ctx);
    if (result.ok) await this.record({ action: 'read_file', skills: [record.name], file: safeText(file), tokens: await estimateTokens(result.text) });
    return result;
  }

  /** Every skill this request may see, up to `max` (pages of the service's list, in its order). */
  async list(max: number): Promise<Array<{ name: string; description: string }>> {
    await this.options.ready;
    const ctx = this.options.requestContext();
    const out: Array<{ name: string; description: string }> = [];
    for (let page = 1; out.length < max; page++) {
      const answer = await this.options.skills.list({ page, page_size: 50 }, ctx);
      out.push(...answer.skills.slice(0, max - out.length).map((s) => ({ name: s.name, description: s.trigger || s.title || '' })));
      if (!answer.has_more) break;
    }
    return out;
  }

  private visibleRecord(name: string): SkillRecord | undefined {
    const record = this.options.skills.inspect(name);
    return record?.name === name ? record : undefined;
  }

  private async record(decision: Omit<McpSkillDecision, 'door' | 'at'>): Promise<void> {
    if (!this.options.record) return;
    try {
      await this.options.record({ door: 'mcp', at: Date.now(), ...decision, ...(decision.query ? { query: safeText(decision.query) } : {}) });
    } catch {
      // A journal that cannot be written must not cost the model its answer.
    }
  }
}

function readableFiles(record: SkillRecord | undefined): Promise<string[]> {
  return record ? readableSkillFiles(record) : Promise.resolve([]);
}

/** Tokens as the CLI counts them everywhere (characters / 4): the ledger's estimate, not a model's tokenizer. */
function estimateTokens(text: string): Promise<number> {
  return lengthTokenCounter.count(text);
}

/** Text from a request or a file name, as an answer may show it: redacted, and unable to open or close a prompt block. */
export function safeText(text: string): string {
  return neutralizeBlockTags(redact(text));
}
