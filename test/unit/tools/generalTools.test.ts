import { strict as assert } from 'node:assert';
import { generalKindOf } from '../../../src/core/tools/index/generalTools';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { makeService } from './helpers';

const tool = (name: string, description: string, properties: Record<string, unknown>, required?: string[]) => ({
  name,
  description,
  inputSchema: { type: 'object', properties, ...(required ? { required } : {}) },
  source: 'mcp' as const,
});

const SQL = tool('db_query', 'Run a read-only SQL query', { sql: { type: 'string' } });
const SHELL = tool('term_start', 'Start a new terminal process and return its output.', { command: { type: 'string' }, timeout_ms: { type: 'number' } }, [
  'command',
  'timeout_ms',
]);
const WEB = tool('engine_web_search', 'Performs a web search for news, articles and online content.', { query: { type: 'string' } }, ['query']);
const FETCH = tool('page_fetch', 'Fetches a URL from the internet and extracts its contents as markdown.', { url: {} }, ['url']);

/** A small catalog: the four general-purpose tools beside service tools whose words the requests below share. */
const CATALOG: ToolInput[] = [
  SQL,
  SHELL,
  WEB,
  FETCH,
  tool('crm_list_customers', 'List customers in the CRM with their plan and owner.', { owner: { type: 'string' } }),
  tool('crm_get_customer', 'Get one customer record by id.', { id: { type: 'string' } }, ['id']),
  tool('crm_customer_notes', 'Read the notes written about a customer.', { id: { type: 'string' } }, ['id']),
  tool('crm_customer_tags', 'Tags of a customer.', { id: { type: 'string' } }, ['id']),
  tool('crm_update_customer', 'Update a customer record.', { id: { type: 'string' } }, ['id']),
  tool('crm_spend_report', 'Send the monthly spend report by email.', { month: { type: 'string' } }),
  tool('issues_create', 'Create an issue in the tracker with a title and body.', { title: { type: 'string' } }, ['title']),
];

describe('general-purpose tools: read from the schema and the description', () => {
  it('a tool that runs a free program of a kind is general purpose of that kind', () => {
    assert.equal(generalKindOf(SQL), 'sql');
    assert.equal(
      generalKindOf(
        tool('lite_read', 'Execute a SELECT query on the SQLite database', { query: { type: 'string', description: 'SELECT SQL query to execute' } }, [
          'query',
        ]),
      ),
      'sql',
    );
    assert.equal(generalKindOf(SHELL), 'shell');
    assert.equal(generalKindOf(WEB), 'webSearch');
    assert.equal(generalKindOf(FETCH), 'fetch');
    assert.equal(generalKindOf(tool('extract', 'Extract content from URLs.', { urls: { type: 'array', items: { type: 'string' } } }, ['urls'])), 'fetch');
  });

  it('a parameter of the right name is not enough: a service search, a browser, an optional address, a command array', () => {
    assert.equal(generalKindOf(tool('jira_search', 'Search Jira issues using JQL.', { query: { type: 'string' } }, ['query'])), undefined);
    assert.equal(generalKindOf(tool('browser_navigate', 'Navigate to a URL', { url: { type: 'string' } }, ['url'])), undefined);
    assert.equal(
      generalKindOf(tool('feedback', 'Submit feedback on a scrape job.', { url: { type: 'string' }, rating: { type: 'number' } }, ['rating'])),
      undefined,
    );
    assert.equal(generalKindOf(tool('create_table', 'Create a new table in the SQLite database', { query: { type: 'string' } }, ['query'])), undefined);
    assert.equal(
      generalKindOf(tool('pods_exec', 'Execute a command in a Pod (shell access)', { command: { type: 'array', items: { type: 'string' } } }, ['command'])),
      undefined,
    );
    assert.equal(generalKindOf({ description: 'Run anything in a shell', inputSchema: undefined }), undefined);
  });
});

describe('general-purpose tools in the top 5 of a weak search', () => {
  async function search(request: string, options: { limit?: number; deny?: string[]; tools?: ToolInput[] } = {}) {
    const { service } = await makeService({ tools: options.tools ?? CATALOG, toolSearch: { alwaysLoadedPatterns: [], deny: options.deny ?? [] } });
    try {
      return await service.withRun({}, (run) => {
        const result = run.search({ query: request, limit: options.limit ?? 5 });
        assert.ok(result.ok);
        return {
          names: result.output.tools.map((t) => t.name),
          scores: result.output.tools.map((t) => t.score),
          activated: run.activateForRequest(request).map((t) => t.name),
        };
      });
    } finally {
      await service.dispose();
    }
  }

  it('a data question whose words only name customers finds the SQL tool in the top 5, with falling scores', async () => {
    const { names, scores } = await search('top 10 customers by total spend in 2024');
    assert.equal(names.length, 5);
    assert.ok(names.includes('db_query'), names.join(', '));
    assert.ok(names[0].startsWith('crm_'), 'the ranking’s own best stays first');
    for (let i = 1; i < scores.length; i++) assert.ok(scores[i] <= scores[i - 1], scores.join(', '));
  });

  it('a general-purpose tool ranked lower down moves up with a score its place allows', async () => {
    // "orders" is only in the SQL tool's parameter description: it ranks below every CRM tool.
    const hinted = tool('db_query', 'Run a read-only SQL query', { sql: { type: 'string', description: 'the statement, such as a report over orders' } });
    const tools = CATALOG.map((t) => (t.name === 'db_query' ? hinted : t));
    const { names, scores } = await search('top 10 customers by total spend across orders', { limit: 10, tools });
    const at = names.indexOf('db_query');
    assert.ok(at >= 0 && at < 5, names.join(', '));
    for (let i = 1; i < scores.length; i++) assert.ok(scores[i] <= scores[i - 1], `${names.join(', ')}: ${scores.join(', ')}`);
  });

  it('a question about the world finds the web search, and one about this machine the shell', async () => {
    // Neither request shares a word with those tools; both share words with the CRM's.
    assert.ok((await search('which CRMs do reviewers rate best for customer support teams?')).names.includes('engine_web_search'));
    assert.ok((await search('something is holding port 3000 so the customer notes app keeps crashing')).names.includes('term_start'));
  });

  it('a request its tool answers keeps the ranking as it is', async () => {
    const { names } = await search('create an issue in the tracker titled how many customers churned');
    assert.equal(names[0], 'issues_create');
    assert.ok(!names.includes('db_query'), names.join(', '));
  });

  it('pre-activation never activates a placed tool, a short list gets none, and a denied one never appears', async () => {
    const request = 'top 10 customers by total spend in 2024';
    assert.ok(!(await search(request)).activated.includes('db_query'));
    assert.ok(!(await search(request, { limit: 3 })).names.includes('db_query'));
    const denied = await search(request, { deny: ['db_*'] });
    assert.ok(!denied.names.includes('db_query') && !denied.activated.includes('db_query'), denied.names.join(', '));
  });
});
