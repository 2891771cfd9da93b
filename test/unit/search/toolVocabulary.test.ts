import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { expandQuery } from '../../../src/core/search/queryExpansion';
import { TOOL_VOCABULARY, ToolVocabulary, formCues } from '../../../src/core/search/toolVocabulary';
import { RANKER_DEFAULTS, rankingQuery } from '../../../src/core/tools/index/toolRanker';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { createToolSearchService } from '../../../src/core/tools/toolSearchService';
import { engineWith, makeService } from '../tools/helpers';
import type { ToolIndex } from '../../../src/core/tools/index/toolIndex';

/** What `tool_search` returns for the query over these tools, default ranker unless told. */
async function search(tools: ToolInput[], query: string, toolVocabularyWeight?: number): Promise<string[]> {
  const service = await createToolSearchService({
    engine: await engineWith(),
    store: new MemoryByteStore(),
    config: { toolSearch: { alwaysLoadedPatterns: [] } },
    ranker: toolVocabularyWeight === undefined ? undefined : { ...RANKER_DEFAULTS, expansion: { ...RANKER_DEFAULTS.expansion, toolVocabularyWeight } },
    saveDelayMs: 60_000,
  });
  service.setTools(tools);
  const names = await service.withRun({}, (run) => {
    const result = run.search({ query, include_always_loaded: true });
    return result.ok ? result.output.tools.map((t) => t.name) : [];
  });
  await service.dispose();
  return names;
}

const CATALOG: ToolInput[] = [
  { name: 'fs_create_directory', description: 'Create a new directory, with nested directories.' },
  { name: 'fs_list_directory', description: 'List the files in a directory.' },
  { name: 'billing_create_invoice', description: 'Create an invoice for a client.' },
  { name: 'chat_post_message', description: 'Post a new message to a chat channel.' },
  { name: 'chat_get_channel_history', description: 'Get recent messages from a channel.' },
  { name: 'web_fetch', description: 'Fetches a URL from the internet and extracts its contents as markdown.' },
  { name: 'status_incidents', description: 'List incidents of a status service.' },
  { name: 'graph_add_observations', description: 'Add new observations to entities in the knowledge graph memory.' },
  { name: 'editor_prefer_language', description: 'Set the language the editor should prefer.' },
];

describe('tool vocabulary: user words to tool words', () => {
  it('"make a folder for invoices" finds the directory tool, not the one sharing "invoice"', async () => {
    const query = 'make a folder for invoices';
    assert.equal((await search(CATALOG, query, 0))[0], 'billing_create_invoice', 'without the bridge the incidental word wins');
    assert.equal((await search(CATALOG, query))[0], 'fs_create_directory');
  });

  it('"post in #deploys that v3 is going out" finds posting a message to a channel', async () => {
    assert.equal((await search(CATALOG, 'post in #deploys that v3 is going out'))[0], 'chat_post_message');
  });

  it('"what does this page say? <address>" finds the fetch tool', async () => {
    const query = 'what does this page say? https://status.example.io/incidents/x1';
    assert.notEqual((await search(CATALOG, query, 0))[0], 'web_fetch');
    assert.equal((await search(CATALOG, query))[0], 'web_fetch');
  });

  it('"remember that i prefer TypeScript" finds the memory tool', async () => {
    const query = 'remember that i prefer tabs';
    assert.equal((await search(CATALOG, query, 0))[0], 'editor_prefer_language');
    assert.equal((await search(CATALOG, query))[0], 'graph_add_observations');
  });

  it('a bridged word never outscores the word the user wrote', async () => {
    const tools: ToolInput[] = [
      { name: 'show_banner', description: 'Show a banner.' },
      { name: 'list_banners', description: 'List banners.' },
    ];
    assert.equal((await search(tools, 'show the banner'))[0], 'show_banner');
  });

  it('keys are words as written: "commits" brings log, "commit" does not', () => {
    assert.ok(TOOL_VOCABULARY.lookup('commits').includes('log'));
    assert.deepEqual(TOOL_VOCABULARY.lookup('commit'), []);
    assert.deepEqual(new ToolVocabulary('folders: directory\nno colon here\n: empty key\n').lookup('folders'), ['directori']);
  });

  it('reads the request form: an address, a #channel, a path, a .db file; an e-mail address is no web page', () => {
    assert.deepEqual(formCues('see notion.so/pricing'), ['url', 'page', 'fetch', 'web']);
    assert.deepEqual(formCues('send it to jane@acme.com'), []);
    assert.deepEqual(formCues('what about #general'), ['channel']);
    assert.deepEqual(formCues('move ./logs older than 30 days'), ['file', 'directory']);
    assert.deepEqual(formCues('open dump/chat.db'), ['file', 'directory', 'sqlite', 'database']);
    assert.deepEqual(formCues('issue #77 is fixed'), []);
  });

  it('a word only inside a value (an address, a number) weighs less than the same word asked for in prose', async () => {
    const { service } = await makeService({ tools: CATALOG });
    const index = (service as unknown as { index: ToolIndex }).index;
    const weight = (query: string, term: string) => rankingQuery(index, query).terms.find((t) => t.term === term)?.weight ?? 0;
    assert.ok(weight('what does status.example.io/incidents say', 'incid') < weight('what incidents does the status page say', 'incid'));
    assert.ok(weight('how many incidents in 2024', '2024') < weight('how many incidents in 2024', 'incid'));
    await service.dispose();
  });

  it('a pasted SQL statement asks for a query, not for the table it names', async () => {
    const tools: ToolInput[] = [
      { name: 'billing_create_invoice', description: 'Create an invoice for a client, with its status and due date.' },
      { name: 'pg_query', description: 'Run a read-only SQL query' },
    ];
    const query = "SELECT * FROM invoices WHERE status='pending' AND due_date < now() is super slow, can you see why";
    assert.equal((await search(tools, query))[0], 'pg_query');
  });

  it('a pasted error asks about the error, not about the words of its message', async () => {
    const tools: ToolInput[] = [
      { name: 'errors_get_issue', description: 'Retrieve an issue from the error tracker with its stacktraces and how often it occurs.' },
      { name: 'fs_read_properties', description: 'Read the properties of a file: size, owner, whether it is undefined or a link.' },
    ];
    const query = "TypeError: Cannot read properties of undefined (reading 'id') at CartSummary.tsx:42 -- how many users are hitting this?";
    assert.equal((await search(tools, query))[0], 'errors_get_issue');
  });

  it('a how-to question asks for documentation', async () => {
    const tools: ToolInput[] = [
      { name: 'docs_query', description: 'Retrieves up-to-date documentation and code examples for any programming library or framework.' },
      { name: 'cluster_update_resource', description: 'Update a resource in the cluster: apply optimistic updates with a resource version.' },
    ];
    assert.equal((await search(tools, 'how do i do optimistic updates with tanstack query v5?'))[0], 'docs_query');
  });

  it('form cues are analysed like the table: a path brings the term of "directory"', () => {
    const vocabulary = { df: (t: string) => (t === 'directori' || t === 'open' ? 1 : 0), idf: () => 2 };
    const { terms } = expandQuery('open ./reports', vocabulary, undefined, { ...RANKER_DEFAULTS.expansion, compoundPartWeight: 0 });
    assert.ok(
      terms.some((t) => t.term === 'directori'),
      JSON.stringify(terms),
    );
  });

  it('any text expands to finite positive weights, the user’s words first at weight 1', () => {
    const vocabulary = { df: (t: string) => (t.length % 2 === 0 ? 1 : 0), idf: (t: string) => 1 + (t.length % 3) };
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const { terms, idf } = expandQuery(text, vocabulary, undefined, { ...RANKER_DEFAULTS.expansion, compoundPartWeight: 0 });
        for (const t of terms) assert.ok(t.weight > 0 && t.weight <= 1 && Number.isFinite(idf.get(t.term) ?? NaN), JSON.stringify(t));
      }),
    );
  });
});
