import { createHash } from 'node:crypto';
import type { Embedder } from '../search/embedding/embedder';
import { SEMANTIC_DEFAULTS } from '../search/embedding/semanticStage';
import type { SemanticStage } from '../search/embedding/semanticStage';
import { VectorTable } from '../search/embedding/vectorTable';
import type { VectorLookup } from '../search/embedding/vectorTable';
import { VectorBuilder } from '../search/embedding/vectorBuilder';
import type { VectorStore } from '../search/embedding/vectorBuilder';
import type { SkillEntry } from './store/skillSearchIndex';

/**
 * Skill vectors for hybrid `skill_search` and pre-flight: one table of every skill's vector,
 * keyed by the store's doc id and kept across searches, so a search costs the query's vector and
 * the few candidates' similarities whatever the number of skills (never a re-embedding of the
 * whole catalog). Each vector is remembered with the hash of the text it was made from: a
 * changed skill gets a new one, an unchanged one keeps its own.
 *
 * Vectors are cached in the skill store's database by (model, text hash), so a new session
 * embeds nothing it embedded before. The bundled (in-process) model embeds every skill the store
 * holds when the store changed since the last search — from that cache first. An endpoint is
 * asynchronous and is only ever sent the skills the request may see: `prepare` (awaited by every
 * search surface before it ranks) fetches the vectors the table lacks — from the cache first,
 * the rest in one batch — and the query's. Until every visible skill has a vector the stage
 * gives none, so ranking stays lexical rather than sinking the skills without one; the same while
 * the endpoint is down (its back-off keeps a down server from being asked on every search).
 * `prune` drops the cached vectors of skills that are gone or changed; it is given every skill
 * the store holds, since a skill hidden from this window's searches (another tenant, an
 * untrusted workspace's pack) keeps its vector.
 */

interface EmbeddableSkill {
  name: string;
  title: string;
  trigger: string;
  description: string;
}

/** What the vectors read of the skill store. */
export interface SkillVectorSource {
  /** Changes whenever a skill is added, replaced or removed. */
  readonly contentVersion: number;
  everySkill(): Iterable<SkillEntry>;
  entryByDocId(docId: number): SkillEntry | undefined;
}

/** The skills one search sees: by name (the most specific scope's), and all of them (an endpoint's check). */
export interface VisibleSkills {
  resolve(name: string): SkillEntry | undefined;
  all(): Iterable<SkillEntry>;
}

/** The text a model embeds for a skill: the name counts twice, as for tools; title and trigger say what it is for. */
function skillEmbeddingText(skill: EmbeddableSkill): string {
  return `${skill.name} ${skill.name} ${skill.title} ${skill.trigger} ${skill.description}`;
}

/** Per doc id: the entry a vector was made for (entries are replaced on every write) and its text's hash. */
interface Made {
  entry: SkillEntry;
  hash: string;
}

export class SkillVectors {
  private table: VectorTable | undefined;
  private tableKey = '';
  private readonly made = new Map<number, Made>();
  private syncedVersion = -1;
  private readonly builder: VectorBuilder;

  constructor(
    private readonly embedder: () => Embedder | undefined,
    private readonly source: SkillVectorSource,
    /** Where skill vectors are kept between sessions (by model and text hash). */
    cache?: VectorStore,
    /** Called after new vectors were cached (the store saves them with its next write). */
    changed: () => void = () => undefined,
  ) {
    this.builder = new VectorBuilder(cache, changed);
  }

  /** Fetches what an endpoint needs for `query` over the visible skills (no-op for an in-process model); never rejects. */
  async prepare(query: string, visible: () => Iterable<SkillEntry>): Promise<void> {
    const embedder = this.current();
    if (!embedder || embedder.vectorOfTerms) return;
    // The query first: without its vector the skills' would not be used, and a server that
    // failed it is left alone (its back-off) rather than sent every skill.
    await embedder.prepare(query);
    if (!embedder.vectorNow(query)) return;
    const wanted = new Map<string, { text: string; entries: SkillEntry[] }>();
    for (const entry of visible()) {
      if (this.made.get(entry.docId)?.entry === entry) continue;
      const text = skillEmbeddingText(entry);
      const hash = textHash(text);
      const known = this.made.get(entry.docId);
      if (known?.hash === hash) {
        known.entry = entry;
        continue;
      }
      const group = wanted.get(hash);
      if (group) group.entries.push(entry);
      else wanted.set(hash, { text, entries: [entry] });
    }
    if (wanted.size === 0) return;
    const texts = new Map([...wanted].map(([hash, { text }]) => [hash, text]));
    const fetched = await this.builder.fetch(embedder, texts, () => this.tableKey === embedder.key);
    // Down: the embedder's back-off says so; ranking stays lexical.
    if (!fetched || fetched.failure !== undefined) return;
    for (const [hash, { entries }] of wanted) for (const entry of entries) this.put(entry, hash, fetched.vectors.get(hash));
  }

  /**
   * Drops the model's cached vectors whose text is none of `everySkill`'s (every scope and
   * status the store holds). Returns how many went; 0 without an embedder. Never throws.
   */
  prune(everySkill: Iterable<SkillEntry>): number {
    const embedder = this.current();
    if (!embedder || !this.builder.storesVectors) return 0;
    const current = new Set<string>();
    for (const entry of everySkill) {
      const made = this.made.get(entry.docId);
      current.add(made?.entry === entry ? made.hash : textHash(skillEmbeddingText(entry)));
    }
    return this.builder.retain(embedder.key, current);
  }

  /** The semantic stage of one search over `visible`, or undefined (no embedder; an endpoint still lacking a visible skill's vector). */
  stage(visible: VisibleSkills): SemanticStage | undefined {
    const embedder = this.current();
    if (!embedder) return undefined;
    if (embedder.vectorOfTerms) {
      this.syncInProcess(embedder);
    } else {
      // An endpoint's vectors come only from `prepare`: without every visible one the stage stays lexical.
      for (const entry of visible.all()) {
        const made = this.made.get(entry.docId);
        if (made?.entry !== entry && made?.hash !== textHash(skillEmbeddingText(entry))) return undefined;
      }
    }
    const table = this.table ?? new VectorTable(embedder.dims ?? 1, 1);
    const source = this.source;
    /** The visible skill a table key (doc id) belongs to, if the search may see it. */
    const visibleEntry = (key: string): SkillEntry | undefined => {
      const entry = source.entryByDocId(Number(key));
      return entry && visible.resolve(entry.name) === entry ? entry : undefined;
    };
    const lookup: VectorLookup = {
      dims: table.dims,
      get size() {
        return table.size;
      },
      has: (name) => {
        const entry = visible.resolve(name);
        return entry !== undefined && table.has(String(entry.docId));
      },
      similarity: (name, query) => {
        const entry = visible.resolve(name);
        return entry ? table.similarity(String(entry.docId), query) : undefined;
      },
      nearest: (query, k, accept = () => true) =>
        table
          .nearest(query, k, (key) => {
            const entry = visibleEntry(key);
            return entry !== undefined && accept(entry.name);
          })
          .map((candidate) => ({ name: visibleEntry(candidate.name)?.name ?? candidate.name, similarity: candidate.similarity })),
    };
    return {
      table: lookup,
      weight: SEMANTIC_DEFAULTS.weight,
      neighbours: SEMANTIC_DEFAULTS.neighbours,
      calibration: embedder.calibration,
      queryVector: (query) => embedder.vectorNow(query),
    };
  }

  /**
   * Brings the table in line with every skill the store holds (an in-process model): nothing to
   * do while the store is unchanged; else skills added or edited get a vector — from the cache,
   * else embedded now and cached — and removed ones lose theirs.
   */
  private syncInProcess(embedder: Embedder): void {
    if (this.syncedVersion === this.source.contentVersion) return;
    const changed: Array<{ entry: SkillEntry; hash: string }> = [];
    const texts = new Map<string, string>();
    const seen = new Set<number>();
    for (const entry of this.source.everySkill()) {
      seen.add(entry.docId);
      const made = this.made.get(entry.docId);
      if (made?.entry === entry) continue;
      const text = skillEmbeddingText(entry);
      const hash = textHash(text);
      if (made?.hash === hash) {
        made.entry = entry;
        continue;
      }
      changed.push({ entry, hash });
      texts.set(hash, text);
    }
    const vectors = this.builder.vectorsNow(embedder, texts);
    for (const { entry, hash } of changed) this.put(entry, hash, vectors.get(hash));
    for (const docId of [...this.made.keys()]) {
      if (!seen.has(docId)) {
        this.made.delete(docId);
        this.table?.delete(String(docId));
      }
    }
    this.syncedVersion = this.source.contentVersion;
  }

  private put(entry: SkillEntry, hash: string, vector: Float32Array | undefined): void {
    this.made.set(entry.docId, { entry, hash });
    const key = String(entry.docId);
    if (!vector || (this.table && this.table.dims !== vector.length)) {
      this.table?.delete(key);
      return;
    }
    this.table ??= new VectorTable(vector.length, 256);
    this.table.set(key, vector);
  }

  /** The embedder now, with the table reset when it changed. */
  private current(): Embedder | undefined {
    const embedder = this.embedder();
    if (!embedder) return undefined;
    if (this.tableKey !== embedder.key) {
      this.table = undefined;
      this.made.clear();
      this.syncedVersion = -1;
      this.tableKey = embedder.key;
    }
    return embedder;
  }
}

function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
