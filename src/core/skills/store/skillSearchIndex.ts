import type { TaskType } from '../../config/settingsSchema';
import type { FieldStats } from '../../search/bm25f';
import { bm25Idf } from '../../search/scoring';
import type { WeightedTerm } from '../../search/bm25f';
import type { CountedFields } from '../../search/countedFields';
import type { TermVocabulary } from '../../search/termStore';
import { TermIndex } from '../../search/termIndex';
import { describingFocus, idfCoverage } from '../../search/termCoverage';
import { broadVocabulary, STUFFED_FACTOR } from '../../search/broadVocabulary';
import type { SkillOrigin } from '../skillSchema';
import { identityKey, scopeRank } from './skillScope';
import type { SkillIdentity } from './skillScope';

/**
 * In-memory mirror of the skill store for the search hot path (kept in step by SkillStore on
 * every write; rebuilt from the database on open and after a rolled-back transaction):
 *
 * - one light entry per skill (the fields `skill_search` returns and the fields the scope /
 *   trust / status filters read), keyed by identity (scope + name), by name and by doc id —
 *   no SQL row decoding or JSON parsing per candidate;
 * - the one term index (search/termIndex.ts, shared with the tool index): BM25F statistics of
 *   each skill's analysed fields and the postings over them, with their refresh policy.
 *
 * Search is exact: the postings score every skill that shares a term with the request, so no
 * candidate stage can drop the skill BM25F ranks first.
 */

/** The analysed fields of a skill, in stored order (search/termStore.ts keeps their terms). */
export const SKILL_FIELDS = ['name', 'title', 'trigger', 'description', 'tags', 'content'] as const;
export type SkillField = (typeof SKILL_FIELDS)[number];
export type SkillFieldTerms = Record<SkillField, readonly string[]>;

/** BM25F field weights (the former per-column BM25 weights) and length normalisation. */
const SKILL_FIELD_WEIGHTS: Record<SkillField, number> = { name: 4, title: 3, trigger: 2.5, description: 1.5, tags: 2, content: 0.5 };
const SKILL_FIELD_B: Record<SkillField, number> = { name: 0.75, title: 0.75, trigger: 0.75, description: 0.75, tags: 0.75, content: 0.75 };

/** Which fields say what a skill is for (a request term there counts fully toward absolute relevance). */
const DESCRIBING_WEIGHTS: Record<SkillField, number> = { name: 1, title: 1, trigger: 1, description: 1, tags: 1, content: 0 };
const BODY_WEIGHTS: Record<SkillField, number> = { name: 0, title: 0, trigger: 0, description: 0, tags: 0, content: 1 };
/**
 * A request term found only in a skill's body counts this much: bodies are long and share
 * common words with most requests, so a body match is weak evidence (tuned on the skills
 * relevance set, bench/skillRelevanceBench.ts).
 */
const BODY_MATCH = 0.25;
/**
 * Documents assumed besides the store's own when weighing request terms: with a handful of
 * skills every word they contain would look common (low IDF) next to the words they lack, and
 * a single matching skill could never score well; the prior keeps the scale of a ~50-skill
 * collection however few are installed.
 */
const PRIOR_DOCS = 50;
/**
 * Ranking's second stage: the best FOCUS_POOL skills by BM25F are re-scored as BM25F relative
 * to the best plus FOCUS_WEIGHT × focus (see `focus`). On the skills-at-scale tuning half
 * (bench/skillsAtScaleBench.ts) this lifted Recall@10 by 7 points and Hit@1 by 2; pools of 50,
 * 100 and 200 and weights 1 to 1.5 gave the same order within one request.
 */
const FOCUS_POOL = 100;
const FOCUS_WEIGHT = 1;
/**
 * Absolute relevance blends from request coverage to skill focus between these counts of
 * distinct request terms (see `relevance`): a one-line request keeps the coverage measure the
 * skills relevance set was tuned on; a pasted task (~100+ terms) is judged by focus.
 */
const SHORT_REQUEST_TERMS = 10;
const LONG_REQUEST_TERMS = 40;
/**
 * Focus as a long request's relevance is scaled by this before the gate: the gate's threshold
 * (`toolshed.skills.minRelevance`) was set for coverage, and on the skills-at-scale tuning half
 * 1.3 offered the right skill for 74 % of long one-skill requests with 5 % of long no-skill
 * requests injecting one (1.0: 64 % / 0 %; 1.6: 77 % / 20 %).
 */
const LONG_FOCUS_SCALE = 1.3;
/**
 * A short request's coverage counts fully once the skill's focus reaches this, half at focus 0
 * (see `relevance`). On the skills-at-scale tuning half it halved the short no-skill requests
 * that injected a skill without asking a model (13 % → 7 %), with the same short one-skill hits.
 */
const SHORT_FOCUS_FLOOR = 0.1;
/**
 * A short request's coverage counts half unless the skill's describing fields share at least
 * this many of its words (numbers are data, not words; a one-word request needs one): one rare
 * word in common ("suggest a name for my new goldfish" and a skill whose description mentions a
 * goldfish) is chance, not a match. On the skills-at-scale tuning half it halved the short
 * no-skill requests that injected a skill (2 → 1 of 35) and the selection requests (0.48 → 0.35
 * per turn) with the same one-skill hits; on the skills relevance set's tuning half it kept every
 * one-skill hit and asked the model less (0.13 → 0.09 per turn).
 */
const SHORT_SHARED_WORDS = 2;
/**
 * Corroboration (`corroborated`): the words of the request a skill's describing fields must share
 * for search alone to put it before a model — injected without a model's confirmation, or offered
 * by a door — below LONG_REQUEST_TERMS distinct request terms and from there on (a request of
 * fewer words needs them all). Relevance is a share: a few rare words in common ("translate … into
 * Italian" and a language tutor's description; a band's tour plan and a bedtime-routine skill)
 * make a high share by chance, while a skill that applies names several of the request's words.
 * On the skills-at-scale tuning half (odd ids, 10,000 skills, bench/tuneOffers.ts) it took the
 * no-skill requests that got any skill from 10 to 3 of 55, one-skill reach 0.750 → 0.712; a short
 * request's 2 let 11 through; 4 cost three more one-skill tasks for one no-skill request. A long
 * request's 6 became 5 once 120 requests written blind were added (the tuning half then held 82
 * one-skill tasks and 78 no-skill requests): 5 reached 54 of the 82 against 50 and let 5 of the
 * 78 through against 3 — of the counts tried (4–6) the pair with the most room under both
 * targets (≥ 60 % reached, ≤ 10 % of no-skill requests given a skill); 4 let 10 through.
 */
const SHORT_CORROBORATING_WORDS = 3;
const LONG_CORROBORATING_WORDS = 5;
/** An analysed term that is a number (a data value, not a word). */
const NUMBER = /^\d+$/;

export interface SkillEntry {
  docId: number;
  name: string;
  title: string;
  trigger: string;
  description: string;
  /** The stored `tags` column (JSON text), as regex matching has always seen it. */
  tagsText: string;
  task_type: TaskType;
  origin: SkillOrigin;
  pack_name: string;
  scope_mode: 'project' | 'tenant' | 'global';
  scope_tenant_id: string;
  scope_project_id: string;
  workspace: boolean;
  status: string;
  model_invocable: boolean;
}

/** Who may see what: the JS twin of the store's SQL filter (scope, trust, status, options). */
export interface EntryFilter {
  tenantId?: string;
  projectId?: string;
  includeWorkspacePacks: boolean;
  activeOnly?: boolean;
  taskType?: TaskType;
  origin?: SkillOrigin;
  scopeMode?: 'project' | 'tenant' | 'global';
  modelInvocableOnly?: boolean;
  /** Pack skills of these names are left out (skills VS Code's own agent skills already offer). */
  excludePackNames?: ReadonlySet<string>;
  /** Skills of these names, of any origin and scope, are left out (the user retired them in this workspace). */
  excludeNames?: ReadonlySet<string>;
}

/** Compiles a filter once per request into a predicate (same rules as the SQL WHERE clause). */
export function entryPredicate(filter: EntryFilter): (entry: SkillEntry) => boolean {
  // '\u0000' never equals a stored id, so an absent tenant/project matches nothing.
  const tenant = filter.tenantId || '\u0000';
  const project = filter.projectId || '\u0000';
  const noWorkspace = !filter.includeWorkspacePacks;
  const activeOnly = filter.activeOnly !== false;
  const invocableOnly = filter.modelInvocableOnly === true;
  const { taskType, origin, scopeMode } = filter;
  const excluded = filter.excludePackNames?.size ? filter.excludePackNames : undefined;
  const retired = filter.excludeNames?.size ? filter.excludeNames : undefined;
  return (e) => {
    if (
      e.scope_mode !== 'global' &&
      !(e.scope_mode === 'tenant' && e.scope_tenant_id === tenant) &&
      !(e.scope_mode === 'project' && e.scope_project_id === project && (e.scope_tenant_id === '' || e.scope_tenant_id === tenant))
    )
      return false;
    if (noWorkspace && e.workspace) return false;
    if (activeOnly && e.status !== 'active') return false;
    if (invocableOnly && !e.model_invocable) return false;
    if (taskType && e.task_type !== taskType) return false;
    if (origin && e.origin !== origin) return false;
    if (scopeMode && e.scope_mode !== scopeMode) return false;
    if (excluded && e.origin === 'pack' && excluded.has(e.name)) return false;
    if (retired?.has(e.name)) return false;
    return true;
  };
}

export interface RankedEntry {
  entry: SkillEntry;
  relevance: number;
}

export class SkillSearchIndex {
  /** Keyed by `identityKey` (scope + name): the unique key of the store. */
  private readonly byKey = new Map<string, SkillEntry>();
  /** Every scope's skill of a name (usually one). */
  private readonly byName = new Map<string, SkillEntry[]>();
  private readonly byDoc = new Map<number, SkillEntry>();
  /** Pack-origin skills per pack name. */
  private readonly packCounts = new Map<string, number>();
  private changeCount = 0;
  /** Term statistics and postings, keyed by doc id. */
  readonly terms = new TermIndex<SkillField, number>(SKILL_FIELDS, SKILL_FIELD_WEIGHTS, SKILL_FIELD_B);

  /** The BM25F statistics of every skill's analysed fields. */
  get stats(): FieldStats<SkillField, number> {
    return this.terms.stats;
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Bumped by every change to a skill or its terms (set, delete, clear, setStatus): what tells a snapshot of the mirror stale. */
  get changes(): number {
    return this.changeCount;
  }

  /** Sets a held skill's status (its row's new status). */
  setStatus(entry: SkillEntry, status: string): void {
    entry.status = status;
    this.changeCount++;
  }

  get(identity: SkillIdentity): SkillEntry | undefined {
    return this.byKey.get(identityKey(identity));
  }

  /** The skills of that name in every scope, most specific scope first. */
  named(name: string): readonly SkillEntry[] {
    return this.byName.get(name) ?? [];
  }

  /**
   * `accept` narrowed to what a request sees by name: of several accepted skills sharing a name,
   * only the most specific scope's (see `scopeRank`); the others are hidden, never merged.
   */
  visible(accept: (entry: SkillEntry) => boolean): (entry: SkillEntry) => boolean {
    return (entry) => {
      if (!accept(entry)) return false;
      const same = this.byName.get(entry.name);
      if (!same || same.length === 1) return true;
      return same.find(accept) === entry;
    };
  }

  byDocId(docId: number): SkillEntry | undefined {
    return this.byDoc.get(docId);
  }

  entries(): IterableIterator<SkillEntry> {
    return this.byKey.values();
  }

  /** How many pack skills the pack has in the store. */
  packCount(packName: string): number {
    return this.packCounts.get(packName) ?? 0;
  }

  /** Every skill, by ascending doc id, with its terms as a snapshot keeps them (PackedDocuments.snapshotOf). */
  snapshotOf(): { entries: SkillEntry[]; terms: readonly string[]; offsets: Uint32Array; words: Uint32Array } {
    const entries = [...this.byKey.values()].sort((a, b) => a.docId - b.docId);
    return { entries, ...this.terms.stats.snapshotOf(entries.map((e) => e.docId)) };
  }

  /** Replaces every skill with a snapshot's (in the order given: `snapshotOf`'s); throws, the index left empty, on a damaged one. */
  restore(entries: readonly SkillEntry[], terms: readonly string[], offsets: Uint32Array, words: Uint32Array<ArrayBuffer>): void {
    this.clear();
    try {
      for (const entry of entries) {
        if (this.byDoc.has(entry.docId) || this.get(entry)) throw new Error(`skill ${entry.docId} is listed twice`);
        this.set(entry);
      }
      this.terms.restore(
        terms,
        entries.map((e) => e.docId),
        offsets,
        words,
      );
    } catch (error) {
      this.clear();
      throw error;
    }
  }

  /** Adds or replaces a skill with its stored terms (a store's open): the blob decoded straight into the statistics (`TermVocabulary.storeInto`). */
  setStored(entry: SkillEntry, blob: Uint8Array, vocabulary: TermVocabulary): void {
    this.set(entry);
    vocabulary.storeInto(blob, SKILL_FIELDS.length, this.intern, this.terms, entry.docId);
  }

  /** Adds or replaces a skill; its terms as lists, or counted or packed with this index's term ids (`internTerm`). */
  set(entry: SkillEntry, terms?: SkillFieldTerms | CountedFields | Uint32Array): void {
    // The key made once: a store's open sets every skill.
    const key = identityKey(entry);
    this.changeCount++;
    const previous = this.byKey.get(key);
    if (previous) this.remove(key, previous);
    this.byKey.set(key, entry);
    const same = this.byName.get(entry.name);
    if (same) {
      same.push(entry);
      same.sort((a, b) => scopeRank(b) - scopeRank(a));
    } else {
      this.byName.set(entry.name, [entry]);
    }
    this.byDoc.set(entry.docId, entry);
    if (entry.origin === 'pack') this.packCounts.set(entry.pack_name, this.packCount(entry.pack_name) + 1);
    if (terms) this.terms.set(entry.docId, terms);
  }

  /** The id of an analysed term in this index's dictionary, interned when new (what counted terms are given in). */
  internTerm(term: string): number {
    return this.terms.internTerm(term);
  }

  private readonly intern = (term: string): number => this.terms.internTerm(term);

  delete(identity: SkillIdentity): void {
    const key = identityKey(identity);
    const entry = this.byKey.get(key);
    if (entry) this.remove(key, entry);
  }

  private remove(key: string, entry: SkillEntry): void {
    this.changeCount++;
    this.byKey.delete(key);
    const rest = (this.byName.get(entry.name) ?? []).filter((other) => other !== entry);
    if (rest.length) this.byName.set(entry.name, rest);
    else this.byName.delete(entry.name);
    if (entry.origin === 'pack') {
      const left = this.packCount(entry.pack_name) - 1;
      if (left > 0) this.packCounts.set(entry.pack_name, left);
      else this.packCounts.delete(entry.pack_name);
    }
    if (this.byDoc.get(entry.docId) === entry) {
      this.byDoc.delete(entry.docId);
      this.terms.delete(entry.docId);
    }
  }

  clear(): void {
    this.changeCount++;
    this.byKey.clear();
    this.byName.clear();
    this.byDoc.clear();
    this.packCounts.clear();
    this.terms.clear();
  }

  /** Document frequency of an analysed term. */
  df(term: string): number {
    return this.stats.df(term);
  }

  /**
   * Absolute relevance of one skill to a request's analysed terms, in [0, 1]: independent of
   * every other candidate. For a short request it is the share of the
   * request the skill covers (`coverageOf`); a long request is not about every word it contains,
   * so that share shrinks with its length whatever it asks, and relevance moves to the skill's
   * `focus` — how much of the skill's own describing vocabulary the request names — fully from
   * LONG_REQUEST_TERMS distinct terms on.
   */
  relevance(terms: readonly string[], docId: number): number {
    const distinct = new Set(terms);
    const share = Math.min(1, Math.max(0, (distinct.size - SHORT_REQUEST_TERMS) / (LONG_REQUEST_TERMS - SHORT_REQUEST_TERMS)));
    // Numbers are data, not words, at any length: a pasted CSV names hundreds of numbers, and a
    // skill whose description lists version or criterion numbers ("WCAG 2.1 … 1.4.3") would be
    // "focused" on it.
    const focus = this.focus(wordsOf(distinct), docId);
    // Coverage counts half for a skill the request names almost none of (its words matched only
    // by chance, e.g. "is data singular or plural?" and a skill listing "singular/plural" pages),
    // and half again for one that shares a single word with a request of several.
    let covered = 0;
    if (share < 1) {
      const { coverage, sharedWords, requestWords } = this.coverageOf(distinct, docId);
      const evidence = sharedWords >= Math.min(SHORT_SHARED_WORDS, requestWords) ? 1 : 0.5;
      covered = coverage * evidence * (0.5 + 0.5 * Math.min(1, focus / SHORT_FOCUS_FLOOR));
    }
    const focused = share > 0 ? Math.min(1, LONG_FOCUS_SCALE * focus) : 0;
    return (1 - share) * covered + share * focused;
  }

  /**
   * Whether the skill's describing fields share enough of the request's words for search alone
   * to put it before a model (SHORT_CORROBORATING_WORDS / LONG_CORROBORATING_WORDS).
   */
  corroborated(terms: readonly string[], docId: number): boolean {
    const distinct = new Set(terms);
    const { sharedWords, requestWords } = this.coverageOf(distinct, docId);
    const needed = distinct.size < LONG_REQUEST_TERMS ? SHORT_CORROBORATING_WORDS : LONG_CORROBORATING_WORDS;
    return sharedWords >= Math.min(needed, requestWords);
  }

  /**
   * Coverage — the share of the request's IDF mass the skill covers (search/termCoverage.ts) —
   * with how many of the request's words (terms that are not numbers) the skill's describing
   * fields share and how many words the request has.
   */
  private coverageOf(terms: ReadonlySet<string>, docId: number): { coverage: number; sharedWords: number; requestWords: number } {
    let requestWords = 0;
    for (const term of terms) if (!NUMBER.test(term)) requestWords++;
    const stats = this.stats;
    if (!stats.has(docId) || terms.size === 0) return { coverage: 0, sharedWords: 0, requestWords };
    const describing = new Set(stats.documentTerms(docId, DESCRIBING_WEIGHTS).map((t) => t.term));
    const body = new Set(stats.documentTerms(docId, BODY_WEIGHTS).map((t) => t.term));
    const docs = stats.size + PRIOR_DOCS;
    let sharedWords = 0;
    for (const term of terms) if (describing.has(term) && !NUMBER.test(term)) sharedWords++;
    const coverage = idfCoverage({
      terms: [...terms],
      idf: (term) => bm25Idf(docs, stats.df(term)),
      match: (term) => (describing.has(term) ? 1 : body.has(term) ? BODY_MATCH : 0),
    });
    return { coverage, sharedWords, requestWords };
  }

  /**
   * The best `limit` skills passing `accept` for weighted request terms, by BM25F over every
   * query term and every skill containing one (exact top-k), then shorter name, then name.
   */
  search(query: readonly WeightedTerm[], accept: (entry: SkillEntry) => boolean, limit: number): RankedEntry[] {
    if (limit <= 0) return [];
    const byDoc = this.byDoc;
    const hits = this.terms.topK(
      query,
      (docId) => {
        const entry = byDoc.get(docId);
        return entry !== undefined && accept(entry);
      },
      Math.max(limit, FOCUS_POOL),
      (a, b) => nameBefore(byDoc.get(a)?.name ?? '', byDoc.get(b)?.name ?? ''),
    );
    if (hits.length === 0) return [];
    // Second stage over the exact BM25F pool: BM25F (relative to the best) plus the skill's focus.
    const terms = new Set(query.map((q) => q.term));
    const best = hits[0].score;
    const inQuery = this.termIdsOf(terms);
    const rescored = hits.map((hit) => ({ hit, score: hit.score / best + FOCUS_WEIGHT * this.focusOf(inQuery, hit.key) }));
    rescored.sort((a, b) => b.score - a.score || (nameBefore(byDoc.get(a.hit.key)?.name ?? '', byDoc.get(b.hit.key)?.name ?? '') ? -1 : 1));
    return rescored.slice(0, limit).map(({ hit, score }) => ({ entry: byDoc.get(hit.key) as SkillEntry, relevance: score * best }));
  }

  /**
   * Why a skill looks stuffed (search/broadVocabulary.ts: a describing vocabulary far broader than
   * the store's usual — a description listing everyday words), or undefined when it does not. The
   * same rule as tools': skill_search still returns it, but pre-flight's gate never injects it.
   */
  stuffedReason(docId: number): string | undefined {
    const breadth = broadVocabulary(this.stats, docId, DESCRIBING_WEIGHTS);
    return breadth && `its description uses ${breadth.terms} different words, over ${STUFFED_FACTOR}× the skills' usual (${breadth.usual})`;
  }

  /**
   * A skill's focus on the request: the share of its describing vocabulary (name, title,
   * trigger, description, tags; IDF-weighted) that the request contains, in [0, 1]. A long
   * pasted task shares many words with every skill, but names most of *one* skill's own words;
   * a description stuffed with common words has a large vocabulary the request covers little of.
   */
  focus(terms: ReadonlySet<string>, docId: number): number {
    return this.focusOf(this.termIdsOf(terms), docId);
  }

  private focusOf(inQuery: (termId: number) => boolean, docId: number): number {
    const stats = this.stats;
    return describingFocus(stats, docId, DESCRIBING_WEIGHTS, stats.size + PRIOR_DOCS, inQuery);
  }

  /** Membership in the request's terms by interned id (terms the collection lacks are never in a skill). */
  private termIdsOf(terms: ReadonlySet<string>): (termId: number) => boolean {
    const ids = new Set<number>();
    for (const term of terms) {
      const id = this.stats.termId(term);
      if (id !== undefined) ids.add(id);
    }
    return (termId) => ids.has(termId);
  }
}

/** The terms that are words (numbers left out). */
function wordsOf(terms: ReadonlySet<string>): Set<string> {
  const words = new Set<string>();
  for (const term of terms) if (!NUMBER.test(term)) words.add(term);
  return words;
}

/** Equal relevance: the shorter name first, then the name (deterministic). */
function nameBefore(name: string, other: string): boolean {
  if (name.length !== other.length) return name.length < other.length;
  return name < other;
}
