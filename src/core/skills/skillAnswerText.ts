import { redact } from '../privacy/redaction';
import { neutralizeBlockTags } from '../privacy/promptBlocks';
import { declaredToolNames } from './render/skillRendering';
import type { SkillRecord } from './skillSchema';
import type { ToolReferenceGate } from './render/toolReferenceGate';

/** Redaction memo for the short strings search/list/directory return (redaction is pure). */
const REDACT_MEMO_LIMIT = 4096;
const REDACT_MEMO_MAX_CHARS = 512;

/**
 * What a skill answer may show: every string is redacted (when `redactPii` is on), tool-gated and
 * cannot open or close one of Toolshed's prompt blocks. Short strings are memoised, since search,
 * list and the directory return the same names and triggers again and again.
 */
export class SkillAnswerText {
  private readonly redacted = new Map<string, string>();

  constructor(private readonly redactPii: () => boolean) {}

  clean(text: string, gate: ToolReferenceGate): string {
    return neutralizeBlockTags(gate.text(this.redactPii() ? this.redactShort(text) : text));
  }

  /**
   * Redacts and gates the whole text before shortening it (a cut can hide the marker that
   * identifies a secret), then gates the cut again (a cut can turn an allowed name such as
   * `deploy_prod_eu` into a denied `deploy_prod`).
   */
  cleanShort(text: string, chars: number, gate: ToolReferenceGate): string {
    return this.clean(shorten(this.clean(text, gate), chars), gate);
  }

  /** The re-safety pass for text the renderer shortens after `makeSafe`. */
  reSafe(records: readonly SkillRecord[], gate: ToolReferenceGate): (text: string) => string {
    const candidates = [...new Set(records.flatMap(declaredToolNames))];
    const redactPii = this.redactPii();
    return (text) => neutralizeBlockTags(gate.text(redactPii ? redact(text) : text, candidates));
  }

  private redactShort(text: string): string {
    if (text.length > REDACT_MEMO_MAX_CHARS) return redact(text);
    let out = this.redacted.get(text);
    if (out === undefined) {
      out = redact(text);
      if (this.redacted.size >= REDACT_MEMO_LIMIT) this.redacted.clear();
      this.redacted.set(text, out);
    }
    return out;
  }
}

export function shorten(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1).trimEnd()}…`;
}
