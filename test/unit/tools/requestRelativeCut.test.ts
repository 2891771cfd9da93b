import { strict as assert } from 'node:assert';
import { absoluteRelevance, requestTermWeights } from '../../../src/core/tools/index/absoluteRelevance';
import { REQUEST_RELATIVE_CUT } from '../../../src/core/tools/requestMatch';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { makeService } from './helpers';

const tool = (name: string, description: string): ToolInput => ({ name, description, inputSchema: { type: 'object', properties: {} } });

/** A CI catalog like the demo's: one tool the request is about, one nearly as close, others sharing only "CI". */
const CI_TOOLS: ToolInput[] = [
  tool('ci_list_flaky_tests', 'List the tests that flaked on CI this week, with their failure rate.'),
  tool('flaky_test_history', 'History of flaky test runs.'),
  tool('ci_trigger_build', 'Trigger a CI build for a branch.'),
  tool('ci_get_build_logs', 'Fetch the logs of a CI build.'),
  ...[
    ['docs_search', 'Search the documentation pages.'],
    ['calendar_create_event', 'Create a calendar event.'],
    ['mail_send', 'Send an e-mail message.'],
    ['weather_forecast', 'Weather forecast for a city.'],
    ['issue_create', 'Open an issue in the tracker.'],
    ['file_read', 'Read a file from the workspace.'],
    ['chat_post', 'Post a message to a chat channel.'],
    ['contacts_find', 'Find a person in the address book.'],
    ['notes_append', 'Append a line to a note.'],
    ['translate_text', 'Translate text into another language.'],
    ['maps_route', 'Route between two places on a map.'],
  ].map(([name, description]) => tool(name!, description!)),
];
const REQUEST = 'Which tests are flaky on CI?';

describe('pre-activation: the relative cut', () => {
  it('activates the best match and a close second, not a tool that shares only a common word with the request', async () => {
    const { service } = await makeService({ tools: CI_TOOLS });
    const index = (service as unknown as { index: Parameters<typeof requestTermWeights>[0] }).index;
    const terms = requestTermWeights(index, REQUEST);
    const relevance = (name: string) => absoluteRelevance(index, terms, name);
    const best = relevance('ci_list_flaky_tests');
    // The situation the cut is for: the loose match passes the absolute gate on its own.
    assert.ok(relevance('ci_trigger_build') >= service.config.toolSearch.minRelevance, `loose ${relevance('ci_trigger_build')} passes the absolute gate`);
    assert.ok(relevance('ci_trigger_build') < REQUEST_RELATIVE_CUT * best, 'but is far below the best');
    const second = relevance('flaky_test_history');
    assert.ok(second < best && second >= REQUEST_RELATIVE_CUT * best, `the second (${second}) is below the best but close to it`);

    const run = await service.startRun();
    const matched = run.activateForRequest(REQUEST).map((t) => t.name);
    assert.deepEqual(matched.sort(), ['ci_list_flaky_tests', 'flaky_test_history']);
    assert.ok(!run.isVisible('ci_trigger_build') && !run.isVisible('ci_get_build_logs'));
    // Still one tool_search away.
    const found = run.search({ query: 'trigger CI build' });
    assert.ok(found.ok && found.output.tools[0]?.name === 'ci_trigger_build');
  });

  it('a lone loose match is still activated when it shares two words with the request: the best candidate only has to pass the absolute gate', async () => {
    const { service } = await makeService({ tools: CI_TOOLS.filter((t) => !t.name.includes('flaky')) });
    const run = await service.startRun();
    assert.deepEqual(
      run.activateForRequest('Which CI build broke this week?').map((t) => t.name),
      ['ci_trigger_build', 'ci_get_build_logs'],
      'with nothing better, the tools that match on "CI build" are activated',
    );
    // One shared word is no evidence: "CI" alone leaves them to tool_search.
    const next = await service.startRun();
    assert.deepEqual(next.activateForRequest(REQUEST), []);
  });
});
