import { strict as assert } from 'node:assert';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { FieldStats } from '../../../src/core/search/bm25f';
import { RANKER_DEFAULTS } from '../../../src/core/tools/index/toolRanker';
import type { FeedbackOptions } from '../../../src/core/tools/index/toolRanker';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { createToolSearchService } from '../../../src/core/tools/toolSearchService';
import { engineWith } from '../tools/helpers';

async function searchWith(tools: ToolInput[], query: string, feedback: Partial<FeedbackOptions>): Promise<string[]> {
  const service = await createToolSearchService({
    engine: await engineWith(),
    store: new MemoryByteStore(),
    config: { toolSearch: { alwaysLoadedPatterns: [] } },
    ranker: { ...RANKER_DEFAULTS, feedback: { ...RANKER_DEFAULTS.feedback, ...feedback } },
    saveDelayMs: 60_000,
  });
  service.setTools(tools);
  const names = await service.withRun({}, (run) => {
    const result = run.search({ query, include_always_loaded: true, limit: 10 });
    return result.ok ? result.output.tools.map((t) => t.name) : [];
  });
  await service.dispose();
  return names;
}

const tool = (name: string, description: string): ToolInput => ({ name, description, inputSchema: { type: 'object', properties: {} } });

/** Filler tools so the feedback terms are rare (a term in > 5 % of the catalog is never added). */
const filler = Array.from({ length: 60 }, (_, i) => tool(`filler_${i}`, `Unrelated helper number ${i} for spreadsheets and calendars.`));

describe('pseudo-relevance feedback (ranker ablation, off by default)', () => {
  it('FieldStats.documentTerms reads a document back with weighted, length-normalised frequencies', () => {
    const stats = new FieldStats<'name' | 'body'>(['name', 'body']);
    stats.set('a', { name: ['film'], body: ['film', 'cinema', 'cinema', 'ticket'] });
    const terms = new Map(stats.documentTerms('a', { name: 2, body: 1 }).map((t) => [t.term, t.frequency]));
    assert.equal(terms.get('film'), 2 / 1 + 1 / 4);
    assert.equal(terms.get('cinema'), 2 / 4);
    assert.equal(terms.get('ticket'), 1 / 4);
    assert.deepEqual(stats.documentTerms('missing', { name: 2, body: 1 }), []);
  });

  it('finds a tool sharing no query word through the vocabulary of the top hit, and only when on', async () => {
    const tools = [
      tool('find_movies', 'Find movies showing in theaters near a city by genre and showtime.'),
      tool('cinema_listings', 'List what is on at cinemas: showtime, genre, theaters and seats.'),
      tool('movie_trivia', 'Answer trivia about movies.'),
      ...filler,
    ];
    const query = 'Find movies near Danville';
    const without = await searchWith(tools, query, {});
    assert.ok(!without.includes('cinema_listings'), `without feedback: ${without.join(', ')}`);
    const withFeedback = await searchWith(tools, query, { documents: 1, terms: 5, weight: 0.3 });
    assert.equal(withFeedback[0], 'find_movies', 'the user’s own words still rank first');
    assert.ok(withFeedback.includes('cinema_listings'), `with feedback: ${withFeedback.join(', ')}`);
  });
});
