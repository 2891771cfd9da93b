import { createHash } from 'node:crypto';
import type { Embedder } from '../search/embedding/embedder';
import { SEMANTIC_DEFAULTS } from '../search/embedding/semanticStage';
import type { SemanticStage } from '../search/embedding/semanticStage';
import { VectorTable } from '../search/embedding/vectorTable';
import type { VectorCache } from '../sql/vectorCache';

/**
 * Skill vectors for hybrid `skill_search` and pre-flight. A catalog of skills is small, so the
 * stage is built per search from the visible skills, each vector remembered by the skill's text
 * (a changed skill gets a new one).
 *
 * An in-process embedder (the bundled one) embeds a skill when a search first sees it. An
 * endpoint is asynchronous: `prepare` (awaited by every search surface before it ranks) fetches
 * the vectors the memo lacks — from the sql.js cache by the text's hash first, the rest in one
 * batch, then cached — and the query's. Until every visible skill has a vector the stage gives
 * none, so ranking stays lexical rather than sinking the skills without one; the same while the
 * endpoint is down (its back-off keeps a down server from being asked on every search).
 * `prune` drops the cached vectors of skills that are gone or changed; it is given every skill
 * the store holds, since a skill hidden from this window's searches (another tenant, an
 * untrusted workspace's pack) keeps its vector.
 */

export interface EmbeddableSkill {
  name: string;
  title: string;
  trigger: string;
  description: string;
}

const MEMO_LIMIT = 5000;

/** The text a model embeds for a skill: the name counts twice, as for tools; title and trigger say what it is for. */
function skillEmbeddingText(skill: EmbeddableSkill): string {
  return `${skill.name} ${skill.name} ${skill.title} ${skill.trigger} ${skill.description}`;
}

export class SkillVectors {
  private readonly memo = new Map<string, Float32Array | null>();
  private memoKey = '';

  constructor(
    private readonly embedder: () => Embedder | undefined,
    /** Where an endpoint's skill vectors are kept between sessions (by model and text hash). */
    private readonly cache?: VectorCache,
    /** Called after new vectors were cached (the store saves them with its next write). */
    private readonly changed: () => void = () => undefined,
  ) {}

  /** Fetches what an endpoint needs for `query` over `skills` (no-op for an in-process model); never rejects. */
  async prepare(query: string, skills: () => Iterable<EmbeddableSkill>): Promise<void> {
    const embedder = this.current();
    if (!embedder || embedder.vectorOfTerms) return;
    // The query first: without its vector the skills' would not be used, and a server that
    // failed it is left alone (its back-off) rather than sent every skill.
    await embedder.prepare(query);
    if (!embedder.vectorNow(query)) return;
    const texts = [...new Set([...skills()].map(skillEmbeddingText))].filter((text) => !this.memo.has(text));
    if (texts.length > 0) {
      const hashes = texts.map(textHash);
      const cached = this.cachedVectors(embedder.key, hashes);
      const missing = texts.filter((_, i) => !cached.has(hashes[i]));
      let fresh: Float32Array[] = [];
      if (missing.length > 0) {
        try {
          fresh = await embedder.embed(missing);
        } catch {
          // Down: the embedder's back-off says so; ranking stays lexical.
          return;
        }
        if (this.memoKey !== embedder.key) return;
        const added = new Map(missing.map((text, i) => [textHash(text), fresh[i]]));
        this.cache?.put(embedder.key, added);
        this.changed();
        for (const [hash, vector] of added) cached.set(hash, vector);
      }
      texts.forEach((text, i) => this.memo.set(text, cached.get(hashes[i]) ?? null));
    }
  }

  /**
   * Drops the endpoint model's cached vectors whose text is none of `everySkill`'s (every scope
   * and status the store holds). Returns how many went; 0 without an endpoint. Never throws.
   */
  prune(everySkill: Iterable<EmbeddableSkill>): number {
    const embedder = this.current();
    if (!embedder || embedder.vectorOfTerms || !this.cache) return 0;
    const current = new Set<string>();
    for (const skill of everySkill) current.add(textHash(skillEmbeddingText(skill)));
    try {
      return this.cache.retain(embedder.key, current);
    } catch {
      // A damaged cache only keeps its stale rows.
      return 0;
    }
  }

  stage(skills: Iterable<EmbeddableSkill>): SemanticStage | undefined {
    const embedder = this.current();
    if (!embedder) return undefined;
    const inProcess = Boolean(embedder.vectorOfTerms);
    let table: VectorTable | undefined;
    for (const skill of skills) {
      const text = skillEmbeddingText(skill);
      let vector = this.memo.get(text);
      if (vector === undefined) {
        // An endpoint's vector comes only from `prepare`: without it the stage stays lexical.
        if (!inProcess) return undefined;
        vector = embedder.vectorNow(text) ?? null;
        this.memo.set(text, vector);
      }
      if (!vector) continue;
      if (table && table.dims !== vector.length) return undefined;
      table ??= new VectorTable(vector.length, 64);
      table.set(skill.name, vector);
    }
    table ??= new VectorTable(embedder.dims ?? 1, 1);
    return {
      table,
      weight: SEMANTIC_DEFAULTS.weight,
      neighbours: SEMANTIC_DEFAULTS.neighbours,
      calibration: embedder.calibration,
      queryVector: (query) => embedder.vectorNow(query),
    };
  }

  /** The embedder now, with the memo reset when it changed (or grew too large). */
  private current(): Embedder | undefined {
    const embedder = this.embedder();
    if (!embedder) return undefined;
    if (this.memoKey !== embedder.key || this.memo.size > MEMO_LIMIT) {
      this.memo.clear();
      this.memoKey = embedder.key;
    }
    return embedder;
  }

  private cachedVectors(model: string, hashes: readonly string[]): Map<string, Float32Array> {
    try {
      return this.cache?.get(model, hashes) ?? new Map();
    } catch {
      // A damaged cache only costs a new request.
      return new Map();
    }
  }
}

function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
