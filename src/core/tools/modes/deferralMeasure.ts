import type { ToolSearchConfig } from '../../config/settingsSchema';
import { sha256Hex } from '../../platform/canonicalJson';
import type { ToolDefinition } from '../tokenEconomy';
import { toolDefinitionText } from '../tokenEconomy';
import type { ToolRecord } from '../toolRecord';
import { decideDeferral } from './deferralDecision';
import type { DeferralDecision } from './deferralDecision';
import type { ToolRun } from '../toolRun';

/**
 * Measures what sending every tool would cost with the request's model and decides (auto
 * mode). Counting hundreds of definitions with a real tokenizer is slow, so the count is
 * cached per catalog fingerprint (names and record hashes of the tools the request could
 * see) and model: a new tool, a changed description, a policy change or another model
 * re-measures; an unchanged catalog costs one hash.
 */

export interface MeasureModel {
  /** Identifies the tokenizer (model id). */
  id: string;
  /** As the model reports it; 0 or missing falls back to FALLBACK_MAX_INPUT_TOKENS. */
  maxInputTokens: number | undefined;
  countTokens(text: string): Promise<number>;
}

export class DefinitionTokenCache {
  private readonly entries = new Map<string, number>();

  constructor(private readonly capacity = 16) {}

  async tokensFor(key: string, count: () => Promise<number>): Promise<number> {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const tokens = await count();
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, tokens);
    return tokens;
  }

  get size(): number {
    return this.entries.size;
  }
}

function catalogKey(modelId: string, records: readonly Pick<ToolRecord, 'name' | 'recordHash'>[]): string {
  const parts = records.map((r) => `${r.name}\u0001${r.recordHash}`).sort();
  return `${modelId}\u0002${sha256Hex(parts.join('\u0002'))}`;
}

export interface MeasureInput {
  config: Pick<ToolSearchConfig, 'mode' | 'autoThresholdPercent'>;
  /** Every tool the request could see (policy, state and visibility applied). */
  records: readonly ToolRecord[];
  /** Their definitions as they would be sent. */
  definitions: () => readonly ToolDefinition[];
  model: MeasureModel;
  cache: DefinitionTokenCache;
}

export async function measureDeferral(input: MeasureInput): Promise<DeferralDecision> {
  const key = catalogKey(input.model.id, input.records);
  const tokens = await input.cache.tokensFor(key, async () => {
    const text = input.definitions().map(toolDefinitionText).join('\n');
    const counted = await input.model.countTokens(text);
    return Number.isFinite(counted) && counted >= 0 ? counted : Math.ceil(text.length / 4);
  });
  return decideDeferral({
    mode: input.config.mode,
    thresholdPercent: input.config.autoThresholdPercent,
    maxInputTokens: input.model.maxInputTokens,
    toolCount: input.records.length,
    definitionTokens: tokens,
  });
}

/** Measures for `run` with `model` and applies the decision to the run. `hidden`: names the caller never offers. */
export async function applyModelDeferral(
  run: ToolRun,
  config: MeasureInput['config'],
  model: MeasureModel,
  cache: DefinitionTokenCache,
  hidden: ReadonlySet<string> = new Set(),
): Promise<DeferralDecision> {
  const records = run.permittedTools().filter((record) => !hidden.has(record.name));
  const decision = await measureDeferral({ config, records, definitions: () => run.toolDefinitions(records), model, cache });
  run.applyDeferral(decision, hidden);
  return decision;
}
