import { createHash } from 'node:crypto';
import { normalize } from './embedder';
import type { Embedder } from './embedder';
import { EndpointError, postJson } from './endpointRequest';

export { EndpointError } from './endpointRequest';

/**
 * A local embedding server as an Embedder: Ollama's `/api/embed` or any OpenAI-compatible
 * `/v1/embeddings` (llama.cpp, LM Studio, vLLM…), told apart by the URL's path. Texts go in
 * batches, each request under a timeout; an answer that is not a list of equal-length number
 * vectors, one per text, is an error. Every text is scrubbed (secrets redacted) before it is sent.
 * What one request may do (no redirects, which addresses, how large an answer) is endpointRequest.ts.
 *
 * Query vectors live in a small in-memory cache that `prepare` fills, so the synchronous search
 * finds them. After a failure the server counts as down for a while: searches stay lexical
 * without waiting on it again and again.
 */

export interface EndpointOptions {
  url: string;
  model: string;
  /** Redacts secrets from a text before it leaves the process. */
  scrub: (text: string) => string;
  timeoutMs?: number;
  /** Texts per request. */
  batchSize?: number;
  /** How long a failed server is left alone (ms). */
  retryAfterMs?: number;
  now?: () => number;
  /**
   * Told when the endpoint starts failing (with what went wrong) and when it answers again
   * (undefined): once per outage, however many requests fail or are skipped in between.
   */
  onStateChange?: (failure: string | undefined) => void;
  /**
   * Which IP addresses the client may connect to (checked on the resolved address of every
   * connection); absent = any. An endpoint accepted as "this machine" passes the loopback test.
   */
  connectTo?: (address: string) => boolean;
}

/** Longest vector an answer may hold (also the answer-size budget before the dimension is known). */
const MAX_DIMS = 8192;
/** Bytes one number may take in a JSON answer ("-1.2345678901234567e-123," and blanks). */
const BYTES_PER_NUMBER = 32;
/** Room for the answer's keys, the model's name and other fields a server adds. */
const ANSWER_OVERHEAD = 64 * 1024;

const QUERY_CACHE = 256;
/**
 * A query is embedded from its first characters, blanks around it aside: the words that name a
 * capability come early, and every search of one turn (skills get more of a long request than
 * tools) then shares one vector and one request.
 */
const QUERY_CHARS = 2000;

function queryText(text: string): string {
  return text.trim().slice(0, QUERY_CHARS).trim();
}

export class EndpointEmbedder implements Embedder {
  readonly key: string;
  private dimensions: number | undefined;
  private readonly queries = new Map<string, Float32Array>();
  private downUntil = 0;
  private readonly ollama: boolean;
  private failureText: string | undefined;
  /** Between a failure and the next answer (what onStateChange reports). */
  private failing = false;

  constructor(private readonly options: EndpointOptions) {
    const url = new URL(options.url);
    // The key names the model in the vector caches, which are stored (the tool index, skills.db):
    // a query string or fragment may carry an API key, so it counts only by its hash.
    const rest = url.search + url.hash;
    const restHash = rest ? `#${createHash('sha256').update(rest).digest('hex').slice(0, 16)}` : '';
    this.key = `endpoint:${options.model}@${url.origin}${url.pathname}${restHash}`;
    this.ollama = /\/api\/embed\/?$/.test(url.pathname);
  }

  get dims(): number | undefined {
    return this.dimensions;
  }

  /** True while a recent failure keeps the server out of the search path. */
  get down(): boolean {
    return this.now() < this.downUntil;
  }

  /** What went wrong the last time the endpoint failed (undefined until it does). */
  get failure(): string | undefined {
    return this.failureText;
  }

  unavailableReason(): string | undefined {
    return this.down ? this.failureText : undefined;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const size = Math.max(1, this.options.batchSize ?? 32);
    const out: Float32Array[] = [];
    try {
      for (let at = 0; at < texts.length; at += size) out.push(...(await this.request(texts.slice(at, at + size))));
    } catch (error) {
      this.downUntil = this.now() + (this.options.retryAfterMs ?? 30_000);
      this.failureText = error instanceof Error ? error.message : String(error);
      if (!this.failing) this.options.onStateChange?.(this.failureText);
      this.failing = true;
      throw error;
    }
    this.downUntil = 0;
    if (this.failing) this.options.onStateChange?.(undefined);
    this.failing = false;
    return out;
  }

  vectorNow(text: string): Float32Array | undefined {
    return this.queries.get(queryText(text));
  }

  async prepare(text: string): Promise<void> {
    const query = queryText(text);
    if (this.queries.has(query) || this.down) return;
    try {
      const [vector] = await this.embed([query]);
      if (this.queries.size >= QUERY_CACHE) this.queries.delete(this.queries.keys().next().value as string);
      this.queries.set(query, vector);
    } catch {
      // Down: the search stays lexical; the failure is what `down` reports.
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private async request(texts: readonly string[]): Promise<Float32Array[]> {
    // The answer can need at most texts × dimensions numbers: anything longer is refused while
    // it streams in, so a hostile or broken server cannot make the process buffer gigabytes.
    const maxBytes = texts.length * (this.dimensions ?? MAX_DIMS) * BYTES_PER_NUMBER + ANSWER_OVERHEAD;
    const body = await postJson(
      new URL(this.options.url),
      { model: this.options.model, input: texts.map((t) => this.options.scrub(t)) },
      { timeoutMs: this.options.timeoutMs ?? 2000, maxBytes, connectTo: this.options.connectTo },
    );
    return this.vectorsOf(body, texts.length);
  }

  /** The answer's vectors in input order, or an EndpointError saying what is wrong. */
  private vectorsOf(body: unknown, count: number): Float32Array[] {
    const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    let rows: unknown[] | undefined;
    if (this.ollama && Array.isArray(record.embeddings)) rows = record.embeddings;
    else if (Array.isArray(record.data)) {
      const data = record.data as Array<Record<string, unknown> | null>;
      rows = data.every((d) => d && Number.isInteger(d.index))
        ? [...data].sort((a, b) => Number(a!.index) - Number(b!.index)).map((d) => d!.embedding)
        : data.map((d) => d?.embedding);
    }
    if (!rows || rows.length !== count) throw new EndpointError(`embedding endpoint returned ${rows ? rows.length : 'no'} vectors for ${count} texts`);
    return rows.map((row) => {
      if (!Array.isArray(row) || row.length === 0 || row.length > MAX_DIMS || !row.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EndpointError('embedding endpoint returned something that is not a vector of numbers');
      }
      this.dimensions ??= row.length;
      if (row.length !== this.dimensions) throw new EndpointError(`embedding endpoint changed dimension (${this.dimensions} → ${row.length})`);
      // A finite double can still be past the float range (1e39 → Infinity as a Float32).
      const vector = Float32Array.from(row as number[]);
      if (!vector.every(Number.isFinite)) throw new EndpointError('embedding endpoint returned numbers beyond the float range');
      return normalize(vector);
    });
  }
}
