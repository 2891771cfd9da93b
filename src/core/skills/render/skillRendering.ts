import type { TokenCounter } from '../../platform/ports';
import { redact } from '../../privacy/redaction';
import { closeTag, neutralizeBlockTags, openTag } from '../../privacy/promptBlocks';
import { toolNameOfAllowed } from '../packs/document/allowedToolsList';
import type { SkillRecord } from '../skillSchema';
import type { SkillGetOutput } from '../skillToolSchemas';
import type { ToolReferenceGate } from './toolReferenceGate';

/**
 * Rendering of skills for a model: first every field is made safe (redaction, then tool-reference
 * gating), then the text is fitted to a token budget by structured compression — dropping the
 * least useful fields of the least relevant skills first — then by dropping trailing skills, and
 * only then by truncation. Every cut can turn an allowed name into a denied one
 * (`deploy_prod_eu` → `deploy_prod`), so each shortened field and each candidate text passes
 * the `reSafe` pass again before it is measured. The result is never over budget and never
 * names a denied tool (property-tested).
 */

/** Re-applies safety to text that was shortened after it was made safe. */
export type ReSafe = (text: string) => string;

const IDENTITY: ReSafe = (text) => text;

export interface SafeSkill {
  name: string;
  title: string;
  trigger: string;
  description: string;
  task_type: string;
  steps: string[];
  preconditions: string[];
  failure_modes: string[];
  body: string;
  tools: Array<{ tool: string; note?: string }>;
  allowed_tools: string[];
  resources: string[];
}

export interface SafetyOptions {
  gate: ToolReferenceGate;
  redact: boolean;
}

/** Tool names a skill declares; the gate always checks them, tool-shaped or not. */
export function declaredToolNames(record: SkillRecord): string[] {
  return [...record.tools.map((t) => t.tool), ...record.allowed_tools.map(toolNameOfAllowed)];
}

/** A skill with every string redacted, every denied tool name removed and every block tag neutralised. */
export function makeSafe(record: SkillRecord, options: SafetyOptions): SafeSkill {
  const { gate } = options;
  const candidates = declaredToolNames(record);
  const clean = (text: string) => neutralizeBlockTags(gate.text(options.redact ? redact(text) : text, candidates));
  return {
    name: clean(record.name),
    title: clean(record.title),
    trigger: clean(record.trigger),
    description: clean(record.description),
    task_type: record.task_type,
    steps: record.steps.map(clean),
    preconditions: record.preconditions.map(clean),
    failure_modes: record.failure_modes.map(clean),
    body: clean(record.body),
    tools: gate.filterNames(record.tools, (t) => t.tool).map((t) => (t.note ? { tool: t.tool, note: clean(t.note) } : { tool: t.tool })),
    allowed_tools: gate.filterNames(record.allowed_tools, toolNameOfAllowed).map((entry) => gate.text(entry, candidates)),
    resources: record.resources.map(clean),
  };
}

/** Compression levels, in the order fields are given up. */
const MAX_LEVEL = 6;

/** The fields a skill keeps at a compression level (body-only skills keep a shortened body). */
export function viewAt(skill: SafeSkill, level: number, reSafe: ReSafe = IDENTITY): SafeSkill {
  const view: SafeSkill = { ...skill };
  if (level >= 1) {
    view.resources = [];
    view.description = '';
  }
  if (level >= 2) {
    view.tools = [];
    view.allowed_tools = [];
  }
  if (level >= 3) view.body = skill.steps.length > 0 ? '' : reSafe(shorten(skill.body, 1200));
  if (level >= 4) view.preconditions = [];
  if (level >= 5) view.failure_modes = [];
  if (level >= 6 && skill.steps.length === 0) view.body = reSafe(shorten(skill.body, 400));
  return view;
}

export function renderSkillMarkdown(view: SafeSkill): string {
  const lines: string[] = [`### ${view.name}${view.title && view.title !== view.name ? ` — ${view.title}` : ''}`];
  if (view.trigger) lines.push(`When: ${view.trigger}`);
  if (view.description && view.description !== view.trigger) lines.push(`About: ${view.description}`);
  if (view.preconditions.length) lines.push('Preconditions:', ...view.preconditions.map((p) => `- ${p}`));
  if (view.steps.length) lines.push('Steps:', ...view.steps.map((s, i) => `${i + 1}. ${s}`));
  if (view.failure_modes.length) lines.push('Failure modes:', ...view.failure_modes.map((f) => `- ${f}`));
  const tools = [
    ...view.tools.map((t) => (t.note ? `${t.tool} (${t.note})` : t.tool)),
    ...view.allowed_tools.filter((a) => !view.tools.some((t) => t.tool === toolNameOfAllowed(a))),
  ];
  if (tools.length) lines.push(`Tools: ${tools.join(', ')}`);
  if (view.body) lines.push('Instructions:', view.body);
  if (view.resources.length) lines.push(`Resources (read only if needed): ${view.resources.join(', ')}`);
  return lines.join('\n');
}

export interface BudgetResult {
  text: string;
  /** Skills that made it into the text (in order) with the level they ended at. */
  included: Array<{ index: number; level: number; view: SafeSkill }>;
  rawTokens: number;
  finalTokens: number;
  compressed: boolean;
  truncated: boolean;
}

export interface Wrapper {
  open: string;
  close: string;
}

export const INJECTION_WRAPPER: Wrapper = {
  open: `${openTag('skills')}\nSkills relevant to this request (follow them when they apply; use skill_get for more):\n`,
  close: `\n${closeTag('skills')}`,
};

export const RAW_WRAPPER: Wrapper = { open: '', close: '' };

const TRUNCATION_MARK = '\n…[truncated]';

/** Renders skills (most relevant first) within `budget` tokens; `reSafe` re-gates every cut. */
export async function renderWithinBudget(
  skills: readonly SafeSkill[],
  budget: number,
  counter: TokenCounter,
  wrapper: Wrapper,
  reSafe: ReSafe = IDENTITY,
): Promise<BudgetResult> {
  const levels = skills.map(() => 0);
  let count = skills.length;
  const compose = () => {
    const parts = skills.slice(0, count).map((skill, i) => renderSkillMarkdown(viewAt(skill, levels[i] ?? 0, reSafe)));
    return parts.length ? `${wrapper.open}${parts.join('\n\n')}${wrapper.close}` : '';
  };
  const measure = async (text: string) => (text ? counter.count(text) : 0);
  let text = compose();
  const rawTokens = await measure(text);
  let tokens = rawTokens;
  const result = (truncated: boolean): BudgetResult => ({
    text,
    included: skills.slice(0, count).map((skill, index) => ({ index, level: levels[index] ?? 0, view: viewAt(skill, levels[index] ?? 0, reSafe) })),
    rawTokens,
    finalTokens: tokens,
    compressed: levels.some((l) => l > 0) || count < skills.length,
    truncated,
  });
  if (tokens <= budget) return result(false);

  // 1. Structured compression: raise levels from the least relevant skill upward.
  for (let level = 1; level <= MAX_LEVEL; level++) {
    for (let i = skills.length - 1; i >= 0; i--) {
      levels[i] = level;
      text = compose();
      tokens = await measure(text);
      if (tokens <= budget) return result(false);
    }
  }
  // 2. Drop the least relevant skills (keep at least one).
  while (count > 1) {
    count--;
    text = compose();
    tokens = await measure(text);
    if (tokens <= budget) return result(false);
  }
  // 3. Truncate the remaining text.
  const inner = skills.length ? renderSkillMarkdown(viewAt(skills[0] as SafeSkill, MAX_LEVEL, reSafe)) : '';
  const fits = async (chars: number) => {
    const candidate = `${wrapper.open}${neutralizeBlockTags(reSafe(inner.slice(0, chars)))}${TRUNCATION_MARK}${wrapper.close}`;
    const n = await counter.count(candidate);
    return n <= budget ? { candidate, n } : undefined;
  };
  let low = 0;
  let high = inner.length;
  let best = await fits(0);
  if (!best) {
    text = '';
    tokens = 0;
    count = 0;
    return result(true);
  }
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const attempt = await fits(mid);
    if (attempt) {
      best = attempt;
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  text = best.candidate;
  tokens = best.n;
  return result(true);
}

/** `skill_get`'s structured form of one rendered skill (optional parts only when present). */
export function structuredSkill(view: SafeSkill): SkillGetOutput['skills'][number] {
  const out: SkillGetOutput['skills'][number] = { name: view.name, title: view.title, trigger: view.trigger, steps: view.steps };
  if (view.preconditions.length) out.preconditions = view.preconditions;
  if (view.failure_modes.length) out.failure_modes = view.failure_modes;
  if (view.body) out.body = view.body;
  if (view.resources.length) out.resources = view.resources;
  return out;
}

function shorten(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars).trimEnd()}…`;
}
