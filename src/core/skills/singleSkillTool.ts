import { closeTag, openTag } from '../privacy/promptBlocks';

/**
 * The single `skill` tool (toolStyle `single` | `both`): one tool whose description lists the
 * skills a run may see as `<skills><skill name="…">description</skill>…</skills>` and whose one
 * parameter `skill_name` is an enum of exactly those names. Small models pick from a closed
 * list far more reliably than they compose search queries, and cannot invent a name.
 *
 * Pure logic only: ordering, caps, the token budget of the listing, the input schemas and the
 * messages a model reads. Where the entries come from (the skill service's gated queries) is
 * the planner's business, so every string here has already been redacted and tool-gated.
 */

/** Budget of the content one `skill` call returns (the same order as pinned skills). */
export const SKILL_TOOL_CONTENT_MAX_TOKENS = 3000;

/** Longest description one listing entry carries; the full skill is one call away. */
const ENTRY_DESCRIPTION_MAX_CHARS = 160;

export interface SkillListingEntry {
  name: string;
  /** Short, already redacted and tool-gated text (title and trigger). */
  description: string;
}

export interface SkillListing {
  entries: SkillListingEntry[];
  /** Every skill the run may see (listed or not). */
  total: number;
  /** Visible skills not in the listing (never cut silently: the description says so). */
  omitted: number;
  /** The tool description: what the tool does, the `<skills>` listing and the omission note. */
  description: string;
}

export interface SkillListingLimits {
  maxEntries: number;
  /** Cap on the description's tokens, counted with the request's model. */
  maxTokens: number;
  countTokens(text: string): Promise<number>;
}

/**
 * Merges candidate groups in priority order (pinned → relevant to the request → recent → the
 * rest), keeping each name's first, highest-priority occurrence.
 */
export function orderSkillListing(groups: ReadonlyArray<readonly SkillListingEntry[]>): SkillListingEntry[] {
  const seen = new Set<string>();
  const ordered: SkillListingEntry[] = [];
  for (const group of groups) {
    for (const entry of group) {
      if (!entry.name || seen.has(entry.name)) continue;
      seen.add(entry.name);
      ordered.push(entry);
    }
  }
  return ordered;
}

/**
 * Caps the ordered candidates by count, then by tokens: the longest prefix whose whole
 * description (omission note included) fits `maxTokens` in the model's own count. At least one
 * entry is kept when any exists, so the tool is never offered with an empty enum.
 */
export async function buildSkillListing(ordered: readonly SkillListingEntry[], total: number, limits: SkillListingLimits): Promise<SkillListing> {
  const all = Math.max(total, ordered.length);
  const candidates = ordered.slice(0, Math.max(1, limits.maxEntries));
  const listing = (count: number): SkillListing => {
    const entries = candidates.slice(0, count);
    return { entries, total: all, omitted: all - entries.length, description: renderSkillListing(entries, all) };
  };
  const fits = async (count: number) => (await limits.countTokens(listing(count).description)) <= limits.maxTokens;
  if (candidates.length === 0 || (await fits(candidates.length))) return listing(candidates.length);
  // Binary search for the largest prefix that fits: O(log n) token counts, each a model call.
  let low = 1;
  let high = candidates.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (await fits(middle)) low = middle;
    else high = middle - 1;
  }
  return listing(low);
}

/** The tool description for a listing of `entries` out of `total` visible skills. */
export function renderSkillListing(entries: readonly SkillListingEntry[], total: number): string {
  const lines = [
    "Load a skill — a short, vetted playbook (trigger → steps → pitfalls) for a task in this workspace — and follow it. Call this with the exact name of a listed skill when one fits the request; the answer is the skill's full content.",
    openTag('skills'),
    ...entries.map(
      (entry) => `<skill name="${escapeXml(entry.name)}">${escapeXml(shorten(entry.description, ENTRY_DESCRIPTION_MAX_CHARS))}${closeTag('skill')}`,
    ),
    closeTag('skills'),
  ];
  const omitted = total - entries.length;
  if (omitted > 0) {
    lines.push(
      `Showing ${entries.length} of ${total} skills: ${omitted} more exist but are not listed here (the user can browse them with /skills and /search in @toolshed, or in the Toolshed sidebar).`,
    );
  }
  return lines.join('\n');
}

/** `skill_name` is an enum of exactly the listed names (the @toolshed loop). */
export function skillToolInputSchema(names: readonly string[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      skill_name: { type: 'string', enum: [...names], description: 'The name of the skill to load, exactly as listed.' },
    },
    required: ['skill_name'],
    additionalProperties: false,
  };
}

/**
 * Agent mode: an extension's language-model tool has a static schema, so `skill_name` is free
 * text there and an unknown name is answered with the closest visible names.
 */
export const SKILL_TOOL_FREE_INPUT_JSON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    skill_name: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'The exact name of the skill to load (from /skills, skill_search or the skill directory).',
    },
  },
  required: ['skill_name'],
  additionalProperties: false,
};

export function parseSkillToolInput(input: unknown): { ok: true; name: string } | { ok: false; message: string } {
  const raw = (input as { skill_name?: unknown } | null | undefined)?.skill_name;
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name || name.length > 200) {
    return {
      ok: false,
      message: 'Invalid input for skill: skill_name must be the exact name of a skill (1–200 characters). Call it again with one of the listed names.',
    };
  }
  return { ok: true, name };
}

/**
 * The answer for a name that returned no content. `wasListed`: the name was offered in this
 * run's listing, so it existed a moment ago and its file has since gone (design: "removed or
 * unavailable"). Otherwise it is unknown, and `suggestions` — visible names only — help the
 * model retry. `name` and `suggestions` must already be redacted and tool-gated.
 */
export function skillNotFoundMessage(name: string, options: { wasListed: boolean; suggestions: readonly string[]; inactiveReason?: string }): string {
  if (options.wasListed || options.inactiveReason) {
    return `Skill "${name}" was removed or is unavailable${options.inactiveReason ? ` (${options.inactiveReason})` : ''}. Continue without it, or load another listed skill.`;
  }
  const closest = options.suggestions.length ? ` Closest skill names: ${options.suggestions.join(', ')}.` : ' No skill has a similar name.';
  return `Unknown skill "${name}".${closest} Call skill again with one of these exact names, or continue without a skill.`;
}

function shorten(text: string, chars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars - 1).trimEnd()}…`;
}

/** Names and descriptions come from skill files: they must not break (or fake) the listing's tags. */
function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
