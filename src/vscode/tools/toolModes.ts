import * as vscode from 'vscode';
import type { DeferralDecision } from '../../core/tools/modes/deferralDecision';
import { DefinitionTokenCache, applyModelDeferral } from '../../core/tools/modes/deferralMeasure';
import type { ToolRun } from '../../core/tools/toolRun';
import type { SettingsAccessor } from '../settingsAccessor';
import type { Logger } from '../../core/platform/ports';
import { Disposable } from '../lifecycle';

/**
 * `toolshed.toolSearch.mode` for VS Code: measures the request's tools with the request's
 * model (its tokenizer and `maxInputTokens`), applies the decision to the run, and keeps the
 * latest decision for `/tools` and the Activated Tools view header.
 */
export class ToolModes extends Disposable {
  private readonly cache = new DefinitionTokenCache();
  private latest: DeferralDecision | undefined;
  private readonly changed = this._register(new vscode.EventEmitter<DeferralDecision>());
  readonly onDidDecide = this.changed.event;
  private warnedModels = new Set<string>();

  constructor(
    private readonly settings: SettingsAccessor,
    private readonly logger: Logger,
  ) {
    super();
  }

  get lastDecision(): DeferralDecision | undefined {
    return this.latest;
  }

  async decide(run: ToolRun, model: vscode.LanguageModelChat, token: vscode.CancellationToken, hidden: readonly string[] = []): Promise<DeferralDecision> {
    const decision = await applyModelDeferral(
      run,
      this.settings.current.toolSearch,
      {
        id: `${model.vendor}/${model.id}`,
        maxInputTokens: model.maxInputTokens,
        countTokens: async (text) => {
          try {
            return await model.countTokens(text, token);
          } catch (error) {
            this.logger.warn(
              `Counting tool definition tokens with ${model.id} failed (${error instanceof Error ? error.message : String(error)}); estimating 4 characters a token.`,
            );
            return Math.ceil(text.length / 4);
          }
        },
      },
      this.cache,
      new Set(hidden),
    );
    if (decision.contextWindowAssumed && !this.warnedModels.has(model.id)) {
      this.warnedModels.add(model.id);
      this.logger.warn(
        `Model ${model.id} reports no context size (maxInputTokens ${String(model.maxInputTokens)}); tool search assumes ${decision.contextWindow} tokens.`,
      );
    }
    this.latest = decision;
    this.changed.fire(decision);
    return decision;
  }
}
