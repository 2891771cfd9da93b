// @ts-check
// Deterministic synthetic tool catalogs + labelled queries for `bench/tools.bench.mjs`.
// Seeded PRNG (mulberry32): the same size and seed always give the same files.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32 } from './seededRandom.mjs';

const SERVERS = [
  'github',
  'jira',
  'slack',
  'gitlab',
  'notion',
  'linear',
  'azure',
  'aws',
  'gcp',
  'docker',
  'kube',
  'postgres',
  'redis',
  'stripe',
  'sentry',
  'datadog',
  'figma',
  'drive',
  'mail',
  'calendar',
];
const VERBS = [
  'create',
  'list',
  'get',
  'update',
  'delete',
  'search',
  'archive',
  'restore',
  'export',
  'import',
  'sync',
  'assign',
  'close',
  'open',
  'merge',
  'comment',
  'tag',
  'move',
  'copy',
  'share',
];
const NOUNS = [
  'issue',
  'pull_request',
  'branch',
  'file',
  'folder',
  'user',
  'team',
  'project',
  'ticket',
  'message',
  'channel',
  'page',
  'database',
  'record',
  'invoice',
  'payment',
  'alert',
  'dashboard',
  'cluster',
  'container',
  'secret',
  'event',
  'meeting',
  'document',
  'label',
  'milestone',
  'release',
  'deployment',
  'pipeline',
  'webhook',
];
const QUALIFIERS = [
  'by id',
  'in bulk',
  'with filters',
  'for the current user',
  'across workspaces',
  'with pagination',
  'as draft',
  'recursively',
  'by name',
  'from a template',
];
const PARAMS = ['id', 'name', 'owner', 'limit', 'cursor', 'query', 'status', 'labels', 'assignee', 'due_date', 'priority', 'body', 'title', 'path', 'region'];
/** @type {Record<string, string>} */
const SYNONYMS = {
  create: 'make a new',
  list: 'show all',
  get: 'fetch',
  update: 'change',
  delete: 'remove',
  search: 'find',
  archive: 'archive',
  restore: 'bring back',
  export: 'download',
  import: 'upload',
  sync: 'synchronise',
  assign: 'assign',
  close: 'close',
  open: 'reopen',
  merge: 'merge',
  comment: 'add a comment on',
  tag: 'tag',
  move: 'move',
  copy: 'duplicate',
  share: 'share',
};

/**
 * @param {number} size
 * @param {number} [seed]
 */
export function generateCatalog(size, seed = 1) {
  const rand = mulberry32(seed * 1000003 + size);
  /** @type {<T>(list: readonly T[]) => T} */
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const tools = [];
  const queries = [];
  const used = new Set();
  let i = 0;
  while (tools.length < size) {
    const server = SERVERS[i % SERVERS.length];
    const verb = pick(VERBS);
    const noun = pick(NOUNS);
    let name = `mcp_${server}_${verb}_${noun}`;
    if (used.has(name)) name = `${name}_${tools.length}`;
    used.add(name);
    const qualifier = pick(QUALIFIERS);
    const params = Object.fromEntries(
      Array.from({ length: 2 + Math.floor(rand() * 4) }, () => pick(PARAMS)).map((p) => [
        p,
        { type: p === 'limit' ? 'integer' : 'string', description: `The ${p.replace('_', ' ')} of the ${noun.replace('_', ' ')}.` },
      ]),
    );
    tools.push({
      name,
      description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${noun.replace('_', ' ')} ${qualifier} in ${server[0].toUpperCase()}${server.slice(1)}. Returns the ${noun.replace('_', ' ')} as JSON.`,
      inputSchema: { type: 'object', properties: params, required: Object.keys(params).slice(0, 1) },
      tags: [server],
    });
    if (rand() < Math.min(1, 300 / size)) {
      queries.push({ query: `${SYNONYMS[verb]} ${noun.replace('_', ' ')} ${qualifier} on ${server}`, gold: [name] });
    }
    i++;
  }
  return { tools, queries };
}

/**
 * Writes tools.jsonl and queries.jsonl under `dir/<size>/`; returns their paths.
 * @param {string} dir
 * @param {number} size
 * @param {number} [seed]
 */
export function writeCatalog(dir, size, seed = 1) {
  const { tools, queries } = generateCatalog(size, seed);
  const folder = path.join(dir, String(size));
  mkdirSync(folder, { recursive: true });
  const toolsFile = path.join(folder, 'tools.jsonl');
  const queriesFile = path.join(folder, 'queries.jsonl');
  writeFileSync(toolsFile, tools.map((t) => JSON.stringify(t)).join('\n') + '\n');
  writeFileSync(queriesFile, queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  return { toolsFile, queriesFile, tools: tools.length, queries: queries.length };
}

/**
 * A real catalog padded with synthetic distractors to `size` tools (the real tools keep their
 * queries): recall of real requests in a very large catalog. Writes tools.jsonl under
 * `dir/padded-<size>/` and returns its path.
 * @param {string} dir
 * @param {readonly object[]} realTools
 * @param {number} size
 * @param {number} [seed]
 */
export function writePaddedCatalog(dir, realTools, size, seed = 1) {
  const { tools } = generateCatalog(Math.max(0, size - realTools.length), seed);
  const folder = path.join(dir, `padded-${size}`);
  mkdirSync(folder, { recursive: true });
  const toolsFile = path.join(folder, 'tools.jsonl');
  writeFileSync(toolsFile, [...realTools, ...tools].map((t) => JSON.stringify(t)).join('\n') + '\n');
  return toolsFile;
}
