import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { expandQuery } from '../../../src/core/search/queryExpansion';
import { TOOL_VOCABULARY, ToolVocabulary, formCues } from '../../../src/core/search/toolVocabulary';
import { RANKER_DEFAULTS } from '../../../src/core/tools/index/toolRanker';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { createToolSearchService } from '../../../src/core/tools/toolSearchService';
import { engineWith } from '../tools/helpers';

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
