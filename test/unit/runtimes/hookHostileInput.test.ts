import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { codexTrustedProjects } from '../../../src/core/runtimes/runtimeTrust';
import {
  contextOf,
  DEPLOY_SKILL,
  doorFolder,
  eventFor,
  fileReplaced,
  fileGone,
  fileVersion,
  makeWorld,
  PDF_SKILL,
  residentPid,
  runHook,
  writeFile,
  writeSkill,
} from './hookFixtures';
import type { HookWorld } from './hookFixtures';

/** Not a JSON object with a string `prompt`: what the hook must refuse. */
function isEvent(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return !!value && typeof value === 'object' && !Array.isArray(value) && typeof (value as { prompt?: unknown }).prompt === 'string';
  } catch {
    return false;
  }
}

describe('toolshed hook: hostile input never breaks the prompt (real processes)', function () {
  this.timeout(300_000);
  let w: HookWorld;
  before(() => {
    w = makeWorld();
    writeSkill(path.join(w.home, '.claude', 'skills'), PDF_SKILL.name, PDF_SKILL.description, PDF_SKILL.body);
  });
  after(() => rmSync(w.root, { recursive: true, force: true }));

  it('garbage on stdin (text, JSON of every shape, bytes): exit 0, nothing on stdout, one line on stderr', async () => {
    const garbage = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.json({ maxDepth: 3 }),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      fc.record({ cwd: fc.string(), prompt: fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string())) }).map((event) => JSON.stringify(event)),
    );
    await fc.assert(
      fc.asyncProperty(garbage, async (input) => {
        fc.pre(!isEvent(Buffer.from(input).toString('utf8')));
        const run = await runHook(w, 'claude', input);
        assert.equal(run.code, 0);
        assert.equal(run.stdout, '');
        assert.match(run.stderr, /^toolshed hook: no skills added: [^\n]+\n$/);
      }),
      { numRuns: 12 },
    );
  });

  it('hostile prompts and folders in a well-formed event: exit 0, and any answer is well-formed prompt blocks (injected skills, then offered ones)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 400 }),
        fc.constantFrom('/', w.workspace, path.join(w.workspace, '..', '..'), '/nonexistent/folder'),
        async (words, cwd) => {
          const run = await runHook(w, 'claude', JSON.stringify({ hook_event_name: 'UserPromptSubmit', cwd, prompt: `${words} ${PDF_SKILL.prompt}` }));
          assert.equal(run.code, 0);
          assert.ok(run.stderr.split('\n').filter(Boolean).length <= 1, run.stderr);
          const context = contextOf('claude', run.stdout);
          if (context) {
            // At most one <skills> block and one <skill_directory> block, each opened and closed once, nothing around them.
            assert.match(context, /^(?:<skills>\n[\s\S]*?\n<\/skills>(?:\n\n|$))?(?:<skill_directory>\n[\s\S]*?\n<\/skill_directory>)?$/);
            for (const tag of ['skills', 'skill_directory'])
              assert.ok((context.match(new RegExp(`^</?${tag}>$`, 'gm'))?.length ?? 0) <= 2, `${tag} opened or closed more than once`);
          }
        },
      ),
      { numRuns: 6 },
    );
  });

  it('an event over 1 MB is refused unread, with one line', async () => {
    const run = await runHook(w, 'claude', JSON.stringify({ prompt: PDF_SKILL.prompt, pad: 'x'.repeat(1024 * 1024 + 10) }));
    assert.equal(run.code, 0);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^toolshed hook: no skills added: the hook event is larger than 1048576 bytes\n$/);
  });

  it('stdin that never closes: the budget ends the hook with one line, no hang', async () => {
    const run = await runHook(w, 'claude', undefined, { args: ['--budget-ms', '1500'] });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^toolshed hook: no skills added: stdin was not closed within 1500 ms\n$/);
  });

  it('a mistake in the call exits 0 (exit 2 would block the prompt in Claude Code and Codex)', async () => {
    const run = await runHook(w, 'claude', '{}', { args: ['--budget-ms', 'soon'] });
    assert.equal(run.code, 0);
    assert.match(run.stderr, /--budget-ms needs a positive whole number/);
    assert.equal((await runHook(w, 'vim', '{}')).code, 0);
  });

  it('Codex\'s trust record: only [projects."…"] tables with trust_level = "trusted"', () => {
    const toml = [
      'model = "o3"',
      '[projects."/a/trusted"]',
      'trust_level = "trusted"',
      "[projects.'/b/literal']",
      "trust_level = 'trusted' # comment",
      '[projects."/c/untrusted"]',
      'trust_level = "untrusted"',
      '[other]',
      'trust_level = "trusted"',
      '[projects."/d/\\"quoted\\""]',
      'trust_level = "trusted"',
    ].join('\n');
    assert.deepEqual([...codexTrustedProjects(toml)].sort(), ['/a/trusted', '/b/literal', '/d/"quoted"']);
    fc.assert(fc.property(fc.string({ maxLength: 500 }), (text) => void codexTrustedProjects(text)));
  });
});

describe('toolshed hook: the resident hook (real processes)', function () {
  this.timeout(300_000);
  let w: HookWorld;
  let pid = 0;
  before(() => {
    w = makeWorld();
    writeSkill(path.join(w.home, '.claude', 'skills'), PDF_SKILL.name, PDF_SKILL.description, PDF_SKILL.body);
  });
  after(() => {
    // Only after a failed test: the last test stops it. At once (it may be stuck), saving nothing.
    if (pid) process.kill(pid, 'SIGKILL');
    rmSync(w.root, { recursive: true, force: true });
  });

  it('answers the next prompts the same as in-process, sees new skill files and a change of trust at once', async () => {
    const first = await runHook(w, 'claude', eventFor('claude', w, PDF_SKILL.prompt), { resident: true });
    assert.ok(contextOf('claude', first.stdout).includes(PDF_SKILL.name), first.stderr);
    const pidFile = path.join(doorFolder(w), 'hook.claude.pid');
    pid = await residentPid(pidFile);
    // Which script files the hook's process loaded (written as it exits; the probe is Node's --require).
    const loaded = path.join(w.root, 'loaded.json');
    const probe = path.join(w.root, 'loaded-probe.cjs');
    writeFile(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(Object.keys(require.cache).filter((f) => f !== __filename))));`,
    );
    const second = await runHook(w, 'claude', eventFor('claude', w, PDF_SKILL.prompt), {
      resident: true,
      env: { NODE_OPTIONS: `--require ${JSON.stringify(probe)}` },
    });
    assert.equal(second.stdout, first.stdout, 'the resident hook gives what the in-process run gave');
    // Answered by the resident hook, the prompt loads the program and the fast path, never the CLI
    // (1.4 MB, which Node would have to parse first): a few KB of script.
    const files = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    assert.deepEqual(files.map((file) => path.basename(file)).sort(), ['cli.js', 'hookClient.js'], files.join(', '));
    for (const file of files) assert.ok(statSync(file).size < 64 * 1024, `${file}: ${statSync(file).size} bytes`);
    writeSkill(path.join(w.workspace, '.claude', 'skills'), DEPLOY_SKILL.name, DEPLOY_SKILL.description, DEPLOY_SKILL.body);
    const untrusted = await runHook(w, 'claude', eventFor('claude', w, DEPLOY_SKILL.prompt), { resident: true });
    assert.equal(untrusted.stdout, '', 'an untrusted workspace adds nothing through the resident hook either');
    writeFile(path.join(w.home, '.claude.json'), JSON.stringify({ projects: { [w.workspace]: { hasTrustDialogAccepted: true } } }));
    const trusted = await runHook(w, 'claude', eventFor('claude', w, DEPLOY_SKILL.prompt), { resident: true });
    assert.ok(contextOf('claude', trusted.stdout).includes(DEPLOY_SKILL.name), trusted.stdout + trusted.stderr);
    writeSkill(path.join(w.home, '.claude', 'skills'), 'csv-cleanup', 'Clean up a CSV export: dedupe rows and normalise the date columns.', 'Use csvkit.');
    const added = await runHook(w, 'claude', eventFor('claude', w, 'dedupe the rows of a CSV export and normalise its date columns'), { resident: true });
    assert.ok(contextOf('claude', added.stdout).includes('csv-cleanup'), added.stdout + added.stderr);
  });

  it("a session's first prompt (no resident hook, a saved store) is answered, and the resident hook it starts finds a file added meanwhile", async () => {
    // The resident hook is gone, as after 30 minutes without a prompt (it saves, then removes its
    // pid file); its socket file may stay behind.
    const pidFile = path.join(doorFolder(w), 'hook.claude.pid');
    if (pid) process.kill(pid);
    pid = 0;
    await fileGone(pidFile);
    writeSkill(path.join(w.home, '.claude', 'skills'), 'sql-index-tuning', 'Tune the indexes of a slow SQL query with EXPLAIN ANALYZE.', 'Read the plan.');
    const store = path.join(doorFolder(w), 'skills.claude.db');
    const saved = fileVersion(store);
    const first = await runHook(w, 'claude', eventFor('claude', w, PDF_SKILL.prompt), { resident: true });
    assert.ok(contextOf('claude', first.stdout).includes(PDF_SKILL.name), first.stdout + first.stderr);
    pid = await residentPid(pidFile);
    // The new file is in the store once the library has been checked (by the resident hook: the
    // first prompt hands that over); an answer during that check may lack a skill added meanwhile.
    await fileReplaced(store, saved);
    const next = await runHook(w, 'claude', eventFor('claude', w, 'tune the indexes of this slow SQL query with explain analyze'), { resident: true });
    assert.ok(contextOf('claude', next.stdout).includes('sql-index-tuning'), next.stdout + next.stderr);
  });

  it('stopped by a signal (a logout, a closed terminal), it ends as after its idle time: its use counts saved beside the store, its pid file removed', async () => {
    const pidFile = path.join(doorFolder(w), 'hook.claude.pid');
    const store = path.join(doorFolder(w), 'skills.claude.db');
    // An answer leaves a use count to save.
    const answered = await runHook(w, 'claude', eventFor('claude', w, PDF_SKILL.prompt), { resident: true });
    assert.ok(contextOf('claude', answered.stdout).includes(PDF_SKILL.name), answered.stdout + answered.stderr);
    // Node's default for SIGTERM ends the process at once: the pid file would stay, the use count unsaved.
    process.kill(pid, 'SIGTERM');
    await fileGone(pidFile);
    pid = 0;
    assert.ok(existsSync(`${store}.usage`), 'the use count is saved beside the store');
  });
});
