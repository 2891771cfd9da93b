import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { lengthTokenCounter } from '../../../src/core/platform/basicPorts';
import type { TokenCounter } from '../../../src/core/platform/ports';
import { ctx, engineWithoutFullText, makeService, pack, stepSkill, tempDir, writeTree } from './helpers';

function corpus(root: string): void {
  writeTree(root, {
    'commit.skill.yaml': stepSkill(
      'pack.t.git.commit_message',
      'Write a git commit message for staged changes',
      ['Read the staged diff.', 'Write an imperative subject.'],
      'title: Commit message\ntask_type: code\ntags: [git, commit]\n',
    ),
    'review.skill.yaml': stepSkill(
      'pack.t.review.pr',
      'Review a pull request diff',
      ['Read the description.', 'Check tests.'],
      'title: PR review\ntask_type: code\ntags: [review]\n',
    ),
    'login.skill.yaml': stepSkill(
      'pack.t.browser.login',
      'Log into a website with username and password',
      ['Open the login page.', 'Submit the form.'],
      'title: Login\ntask_type: browser\ntags: [auth]\n',
    ),
    'paginate.skill.yaml': stepSkill(
      'pack.t.api.pagination',
      'Retrieve all items from a cursor-paginated API',
      ['Call the endpoint.', 'Follow the cursor.'],
      'title: Cursor pagination\ntask_type: api\n',
    ),
  });
}

describe('skills: skill_search', () => {
  it('fts: ranked, scores in [0,1], event with requested and effective types', async () => {
    const root = tempDir();
    corpus(root);
    const { service, events } = await makeService();
    await service.loadPacks([pack('t', root)]);
    const out = await service.search({ query: 'how do I write a commit message?' }, ctx);
    assert.equal(out.search_type, 'fts');
    assert.equal(out.skills[0]!.name, 'pack.t.git.commit_message');
    assert.ok(out.skills.every((s) => s.score >= 0 && s.score <= 1));
    assert.deepEqual(events.ofType('skill_search_query').at(-1)!.payload, {
      query: 'how do I write a commit message?',
      requested_search_type: 'fts',
      effective_search_type: 'fts',
      results_count: out.skills.length,
    });
    const filtered = await service.search({ query: 'login website pagination', task_type: 'api' }, ctx);
    assert.deepEqual(
      filtered.skills.map((s) => s.name),
      ['pack.t.api.pagination'],
    );
    assert.equal((await service.search({ query: 'commit', limit: 1 }, ctx)).skills.length, 1);
  });

  it('exact and regex, with the score tiers and a rejected unsafe regex', async () => {
    const root = tempDir();
    corpus(root);
    const { service } = await makeService();
    await service.loadPacks([pack('t', root)]);
    assert.deepEqual(
      (await service.search({ query: 'pack.t.review.pr', search_type: 'exact' }, ctx)).skills.map((s) => [s.name, s.score]),
      [['pack.t.review.pr', 1]],
    );
    const regex = await service.search({ query: 'pack\\.t\\.(api|browser)', search_type: 'regex' }, ctx);
    assert.deepEqual(
      regex.skills.map((s) => s.score),
      [0.9, 0.9],
    );
    const full = await service.search({ query: 'pack\\.t\\.browser\\.login', search_type: 'regex' }, ctx);
    assert.equal(full.skills[0]!.score, 0.95);
    const inTrigger = await service.search({ query: 'cursor-paginated', search_type: 'regex' }, ctx);
    assert.equal(inTrigger.skills[0]!.score, 0.75);
    const bad = await service.search({ query: '.{0,99}'.repeat(8), search_type: 'regex' }, ctx);
    assert.equal(bad.skills.length, 0);
    assert.match(bad.note ?? '', /Regex rejected: the pattern is too expensive/);
  });

  it('ranks on a sql.js without full-text modules as on the published build: same skills, same scores, same relevance', async () => {
    const root = tempDir();
    corpus(root);
    const published = await makeService();
    const bare = await makeService({ engine: await engineWithoutFullText() });
    for (const h of [published, bare]) await h.service.loadPacks([pack('t', root)]);
    for (const query of ['review a pull request', 'log into the website', 'paginate a cursor API']) {
      const expected = await published.service.search({ query }, ctx);
      const got = await bare.service.search({ query }, ctx);
      assert.equal(got.search_type, 'fts', query);
      assert.deepEqual(got, expected, query);
    }
    assert.equal((await bare.service.search({ query: 'review a pull request' }, ctx)).skills[0]!.name, 'pack.t.review.pr');
    assert.equal(bare.events.ofType('skill_search_query').at(-1)!.payload.effective_search_type, 'fts');
    const relevant = await bare.service.getRelevant({ task: 'log into the website' }, ctx);
    assert.deepEqual(relevant, await published.service.getRelevant({ task: 'log into the website' }, ctx));
    assert.equal(relevant.skills[0], 'pack.t.browser.login');
  });

  it('rejects invalid tool input with a zod error', async () => {
    const { service } = await makeService();
    await assert.rejects(service.search({ query: 'x', limit: 99 }, ctx));
    await assert.rejects(service.get({ names: [] }, ctx));
  });
});

describe('skills: skill_get, skill_list, directory', () => {
  it('skill_get returns content within budget, records usage, and suggests close names for unknown ones', async () => {
    const root = tempDir();
    corpus(root);
    const { service, events, clock } = await makeService();
    await service.loadPacks([pack('t', root)]);
    clock.tick(5000);
    const out = await service.get({ names: ['pack.t.git.commit_message', 'pack.t.git.comit_mesage'] }, ctx);
    assert.deepEqual(
      out.skills.map((s) => s.name),
      ['pack.t.git.commit_message'],
    );
    assert.deepEqual(out.skills[0]!.steps, ['Read the staged diff.', 'Write an imperative subject.']);
    assert.ok(out.formatted_context.startsWith('<skills>'));
    assert.ok(out.formatted_context.includes('1. Read the staged diff.'));
    assert.match(out.message ?? '', /Unknown skill "pack\.t\.git\.comit_mesage"\. Closest known names: pack\.t\.git\.commit_message/);
    assert.equal(service.inspect('pack.t.git.commit_message')!.use_count, 1);
    assert.equal(service.inspect('pack.t.git.commit_message')!.last_used, clock.now());
    const payload = events.ofType('skill_get').at(-1)!.payload;
    assert.deepEqual(Object.keys(payload).sort(), ['final_tokens_est', 'max_tokens', 'names', 'returned_count']);
    const raw = await service.get({ names: ['pack.t.review.pr'], format: 'raw', max_tokens: 200 }, ctx);
    assert.ok(raw.formatted_context.startsWith('### pack.t.review.pr'));
    assert.ok((await lengthTokenCounter.count(raw.formatted_context)) <= 200);
  });

  it('skill_list pages with filters and totals', async () => {
    const root = tempDir();
    corpus(root);
    const { service, events } = await makeService();
    await service.loadPacks([pack('t', root)]);
    const page1 = await service.list({ page: 1, page_size: 3 }, ctx);
    assert.deepEqual([page1.total, page1.total_pages, page1.has_more, page1.skills.length], [4, 2, true, 3]);
    const page2 = await service.list({ page: 2, page_size: 3 }, ctx);
    assert.deepEqual([page2.skills.length, page2.has_more], [1, false]);
    assert.deepEqual(
      (await service.list({ task_type: 'code' }, ctx)).skills.map((s) => s.name),
      ['pack.t.git.commit_message', 'pack.t.review.pr'],
    );
    assert.equal((await service.list({ origin: 'learned' }, ctx)).total, 0);
    assert.equal((await service.list({ scope: 'project' }, ctx)).total, 0);
    assert.deepEqual(events.ofType('skill_list').at(-1)!.payload.returned_count, 0);
  });

  it('directory: bounded, pinned first, then recent (or top)', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`s${i}.skill.yaml`] = stepSkill(`s${String(i).padStart(2, '0')}`, `Skill ${i}`);
    writeTree(root, files);
    const { service, events, clock } = await makeService({
      config: { directory: { enabled: true, maxEntries: 5, includeFields: ['name', 'title', 'trigger'], selectionStrategy: 'pinned_then_recent' } },
    });
    await service.loadPacks([pack('t', root, { pinnedSkillNames: ['s40', 's41'] })]);
    clock.tick();
    await service.get({ names: ['s07'] }, ctx);
    clock.tick();
    await service.get({ names: ['s03'] }, ctx);
    await service.get({ names: ['s03'] }, ctx);
    const dir = await service.directory({ ...ctx, pinnedNames: ['s10'] });
    assert.deepEqual(
      dir.entries.map((e) => e.name),
      ['s40', 's41', 's10', 's03', 's07'],
    );
    assert.ok(dir.text.startsWith('<skill_directory>\nKnown skills'));
    assert.ok(dir.text.includes('- s40 — S40: Skill 40'));
    assert.equal(dir.text.split('\n').filter((l) => l.startsWith('- ')).length, 5);
    assert.deepEqual(events.ofType('skill_directory_rendered').at(-1)!.payload, { count: 5 });
  });

  it('directory pinned_then_top orders by use count; disabled directory renders nothing', async () => {
    const root = tempDir();
    writeTree(root, { 'a.skill.yaml': stepSkill('a', 'A'), 'b.skill.yaml': stepSkill('b', 'B'), 'c.skill.yaml': stepSkill('c', 'C') });
    const { service, clock } = await makeService({
      config: { directory: { enabled: true, maxEntries: 2, includeFields: ['name'], selectionStrategy: 'pinned_then_top' } },
    });
    await service.loadPacks([pack('t', root)]);
    await service.get({ names: ['b'] }, ctx);
    await service.get({ names: ['b'] }, ctx);
    clock.tick();
    await service.get({ names: ['c'] }, ctx);
    assert.deepEqual(
      (await service.directory(ctx)).entries.map((e) => e.name),
      ['b', 'c'],
    );
    const { service: off } = await makeService({
      config: { directory: { enabled: false, maxEntries: 2, includeFields: ['name'], selectionStrategy: 'pinned_then_top' } },
    });
    await off.loadPacks([pack('t', root)]);
    assert.equal((await off.directory(ctx)).text, '');
  });
});

describe('skills: pre-flight get_relevant', () => {
  it('injects the most relevant skills and emits skills_retrieved', async () => {
    const root = tempDir();
    corpus(root);
    const { service, events } = await makeService();
    await service.loadPacks([pack('t', root)]);
    const out = await service.getRelevant({ task: 'Please review this pull request diff for me' }, ctx);
    assert.equal(out.skills[0], 'pack.t.review.pr');
    assert.ok(out.text.startsWith('<skills>') && out.text.endsWith('</skills>'));
    assert.equal(out.was_summarized, false);
    const payload = events.ofType('skills_retrieved').at(-1)!.payload;
    assert.deepEqual(Object.keys(payload).sort(), ['final_tokens_est', 'raw_tokens_est', 'skill_count', 'top_k_used', 'was_summarized']);
    assert.equal(service.inspect('pack.t.review.pr')!.use_count, 1);
  });

  it('compresses structurally before truncating (drops fields, keeps steps)', async () => {
    const root = tempDir();
    const long = Array.from({ length: 8 }, (_, i) => `Precondition ${i} that is fairly long and wordy for testing.`);
    writeTree(root, {
      'a.skill.yaml': `${stepSkill('a', 'Deploy the service to production', ['Build.', 'Deploy.', 'Verify.'])}preconditions:\n${long.map((l) => `  - ${l}`).join('\n')}\nfailure_modes:\n${long.map((l) => `  - F ${l}`).join('\n')}\n`,
    });
    const { service } = await makeService();
    await service.loadPacks([pack('t', root)]);
    const full = await service.getRelevant({ task: 'deploy the service', max_tokens: 5000 }, ctx);
    const small = await service.getRelevant({ task: 'deploy the service', max_tokens: 100 }, ctx);
    assert.ok(full.text.includes('Preconditions:'));
    assert.ok(small.was_summarized);
    assert.ok(!small.text.includes('Preconditions:'));
    assert.ok(small.text.includes('1. Build.') && small.text.includes('3. Verify.'));
    assert.ok(small.final_tokens_est <= 100);
  });

  it('property: never over budget, whatever the skills, budget and token counter', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    const word = () => 'deploy';
    for (let i = 0; i < 12; i++) {
      const steps = Array.from({ length: 1 + (i % 7) }, (_, j) => `${word()} step ${j} ${'lorem ipsum '.repeat(i * 3)}`);
      files[`s${i}.skill.yaml`] = `${stepSkill(`s${i}`, `deploy things ${'x'.repeat(i * 40)}`, steps)}body: ${JSON.stringify('Body text. '.repeat(i * 20))}\n`;
    }
    writeTree(root, files);
    const counters: TokenCounter[] = [
      lengthTokenCounter,
      { count: async (t) => t.split(/\s+/).filter(Boolean).length },
      { count: async (t) => Math.ceil(t.length / 3) + 7 },
    ];
    const { service } = await makeService();
    await service.loadPacks([pack('t', root)]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 100, max: 3000 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 2 }), async (budget, topK, which) => {
        const { service: s } = await makeService({ tokenCounter: counters[which] });
        await s.loadPacks([pack('t', root)]);
        const out = await s.getRelevant({ task: 'deploy things step', max_tokens: budget, top_k: topK }, ctx);
        const tokens = out.text ? await counters[which]!.count(out.text) : 0;
        assert.ok(tokens <= budget, `${tokens} > ${budget}`);
        assert.equal(out.final_tokens_est, tokens);
        const got = await s.get({ names: ['s11', 's10', 's9'], max_tokens: Math.max(200, budget) }, ctx);
        assert.ok((await counters[which]!.count(got.formatted_context)) <= Math.max(200, budget));
      }),
      { numRuns: 25 },
    );
  });

  it('skills with disable-model-invocation are not injected or listed in the directory, but can be fetched', async () => {
    const root = tempDir();
    writeTree(root, { 'manual/SKILL.md': '---\nname: manual\ndescription: Release the product manually.\ndisable-model-invocation: true\n---\nRelease it.\n' });
    const { service } = await makeService();
    await service.loadPacks([pack('t', root)]);
    assert.equal((await service.getRelevant({ task: 'release the product' }, ctx)).skills.length, 0);
    assert.equal((await service.directory(ctx)).count, 0);
    assert.equal((await service.get({ names: ['manual'] }, ctx)).skills[0]!.body, 'Release it.');
  });
});
