import type { Embedder } from '../search/embedding/embedder';
import { SEMANTIC_DEFAULTS } from '../search/embedding/semanticStage';
import type { SemanticStage } from '../search/embedding/semanticStage';
import { VectorTable } from '../search/embedding/vectorTable';

/**
 * Skill vectors of an in-process embedder (the bundled one), for hybrid `skill_search`. A
 * catalog of skills is small, so the stage is built per search from the visible skills, each
 * vector remembered by the skill's text (a changed skill gets a new one). An endpoint embedder
 * is not used for skills: their search stays lexical then.
 */

export interface EmbeddableSkill {
  name: string;
  title: string;
  trigger: string;
  description: string;
}

const MEMO_LIMIT = 5000;

export class SkillVectors {
  private readonly memo = new Map<string, Float32Array | null>();
  private memoKey = '';

  constructor(private readonly embedder: () => Embedder | undefined) {}

  stage(skills: Iterable<EmbeddableSkill>): SemanticStage | undefined {
    const embedder = this.embedder();
    if (!embedder?.vectorOfTerms || !embedder.dims) return undefined;
    if (this.memoKey !== embedder.key || this.memo.size > MEMO_LIMIT) {
      this.memo.clear();
      this.memoKey = embedder.key;
    }
    const table = new VectorTable(embedder.dims, 64);
    for (const skill of skills) {
      // The name counts twice, as for tools; the title and trigger say what the skill is for.
      const text = `${skill.name} ${skill.name} ${skill.title} ${skill.trigger} ${skill.description}`;
      let vector = this.memo.get(text);
      if (vector === undefined) {
        vector = embedder.vectorNow(text) ?? null;
        this.memo.set(text, vector);
      }
      if (vector) table.set(skill.name, vector);
    }
    return { table, weight: SEMANTIC_DEFAULTS.weight, neighbours: SEMANTIC_DEFAULTS.neighbours, queryVector: (query) => embedder.vectorNow(query) };
  }
}
