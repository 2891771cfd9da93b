import * as assert from 'node:assert/strict';
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { nodeFileSystem } from '../../../src/core/platform/nodeFileSystem';
import type { FileSystemPort } from '../../../src/core/platform/ports';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import type { SkillService } from '../../../src/core/skills/skillService';
import { SkillFileFingerprints } from '../../../src/core/skills/store/skillFileFingerprints';
import { ctx, engine, pack, tempDir, writeTree } from './helpers';

/**
 * A warm start answers `skill_search`, `skill_get` and pre-flight from the saved index while the
 * load still checks the library (core/skills/earlyAnswers.ts), and never with a stale skill: each
 * pack skill an early answer would return has its own file checked, and a changed or deleted one
 * makes that answer wait for the load. The load is held open by a gate in the file-system port
 * (its first step, the pack folder's `stat`), never by time.
 */
describe('skills: answers before the load has checked the library', () => {
  const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${description}.\n`;

  /** Saved an hour ago, as a library a user already has (a file changed within 2 s of a load is never trusted). */
  const age = (file: string) => {
    const when = new Date(Date.now() - 3600_000);
    utimesSync(file, when, when);
  };

  const LIBRARY: Record<string, string> = {
    alpha: 'Rotate the signing keys of the release pipeline',
    beta: 'Archive old invoices into cold storage',
    gamma: 'Deploy the payment service to staging',
  };

  function library(): string {
    const root = tempDir();
    writeTree(root, Object.fromEntries(Object.entries(LIBRARY).map(([name, description]) => [`${name}/SKILL.md`, skillMd(name, description)])));
    for (const name of Object.keys(LIBRARY)) age(path.join(root, name, 'SKILL.md'));
    for (const name of Object.keys(LIBRARY)) age(path.join(root, name));
    age(root);
    return root;
  }

  /**
   * A file-system port whose `stat` of the pack folder — the load's first step — waits until the
   * gate opens; `opensOn(file)` opens it when an answer checks that file (its own `lstat`).
   */
  function gatedFs(root: string) {
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    let isOpen = false;
    const openers = new Set<string>();
    const release = () => {
      isOpen = true;
      open();
    };
    const fs: FileSystemPort = {
      ...nodeFileSystem,
      stat: async (file) => {
        if (file === root) await opened;
        return nodeFileSystem.stat(file);
      },
      statSync: (file) => {
        if (openers.has(file)) release();
        return nodeFileSystem.statSync!(file);
      },
    };
    return {
      fs,
      release,
      opensOn: (file: string) => openers.add(file),
      get isOpen() {
        return isOpen;
      },
    };
  }

  async function saved(root: string): Promise<MemoryByteStore> {
    const bytes = new MemoryByteStore();
    const cold = await createHeadlessSkillService({ engine: await engine(), store: bytes });
    await cold.loadPacks([pack('p', root)]);
    await cold.dispose();
    return bytes;
  }

  /** The library with a script in alpha's `scripts/` (every file older than the save), and the store saved over it. */
  async function savedWithScript(): Promise<{ root: string; bytes: MemoryByteStore }> {
    const root = library();
    writeTree(root, { 'alpha/scripts/rotate.sh': 'echo rotate\n' });
    for (const file of ['alpha/scripts/rotate.sh', 'alpha/scripts', 'alpha']) age(path.join(root, file));
    return { root, bytes: await saved(root) };
  }

  async function warm(bytes: MemoryByteStore, fs: FileSystemPort): Promise<SkillService> {
    return createHeadlessSkillService({ engine: await engine(), store: bytes, fs });
  }

  const found = async (service: SkillService, query: string, limit = 3) =>
    (await service.search({ query, limit }, ctx)).skills.map((s) => `${s.name}: ${s.trigger}`);

  it('a warm start answers a search, a get and pre-flight from the stored index while the load is held open', async () => {
    const root = library();
    const bytes = await saved(root);
    const gate = gatedFs(root);
    const service = await warm(bytes, gate.fs);
    let loadEnded = false;
    const loading = service.loadPacks([pack('p', root)]).then((summary) => {
      loadEnded = true;
      return summary;
    });

    assert.deepEqual(await found(service, 'invoices cold storage'), [`beta: ${LIBRARY.beta}`]);
    const got = await service.get({ names: ['alpha'] }, ctx);
    assert.match(got.formatted_context, /signing keys/);
    const relevant = await service.getRelevant({ task: 'deploy the payment service to staging' }, ctx);
    assert.deepEqual(relevant.skills, ['gamma']);
    // Pre-flight with active-skill selection (the hook's default, hybrid) asks for its candidates; the model mode fills up with the top skills.
    const candidates = await service.selectionCandidates('deploy the payment service to staging', 5, ctx);
    assert.deepEqual(
      candidates.map((c) => c.name),
      ['gamma'],
    );
    const filled = await service.selectionCandidates('deploy the payment service to staging', 5, ctx, true);
    assert.deepEqual(filled.map((c) => c.name).sort(), ['alpha', 'beta', 'gamma']);
    assert.equal(gate.isOpen, false, 'answered while the load could not even list the pack folder');
    assert.equal(loadEnded, false);

    gate.release();
    assert.equal((await loading).unchangedFiles, 3);
    await service.dispose();
  });

  /**
   * A warm start over the library with alpha edited after the save, its load under way; the gate
   * opens only when an answer checks alpha's file: an answer that skipped the check hangs.
   */
  async function warmWithAlphaEdited() {
    const root = library();
    const bytes = await saved(root);
    const edited = path.join(root, 'alpha', 'SKILL.md');
    writeFileSync(edited, skillMd('alpha', 'Rotate the signing keys of the release pipeline with the vault'));
    const gate = gatedFs(root);
    gate.opensOn(edited);
    const service = await warm(bytes, gate.fs);
    return { service, gate, loading: service.loadPacks([pack('p', root)]) };
  }

  it('a skill whose file changed since the save is never returned stale: the answer waits for the load and shows the new text', async () => {
    const { service, gate, loading } = await warmWithAlphaEdited();

    assert.deepEqual(await found(service, 'signing keys'), ['alpha: Rotate the signing keys of the release pipeline with the vault']);
    assert.equal(gate.isOpen, true);
    const got = await service.get({ names: ['alpha'] }, ctx);
    assert.match(got.formatted_context, /with the vault/);
    await loading;
    await service.dispose();
  });

  it("pre-flight's candidates never show a changed skill, the model mode's filled-up ones included: the answer waits for the load", async () => {
    // Only the filled-up candidates hold alpha: the request names none of its words.
    const { service, gate, loading } = await warmWithAlphaEdited();

    const filled = await service.selectionCandidates('deploy the payment service to staging', 5, ctx, true);
    assert.equal(gate.isOpen, true, 'the filled-up candidates were checked against their files');
    assert.equal(filled.find((c) => c.name === 'alpha')?.description, 'Rotate the signing keys of the release pipeline with the vault');
    await loading;
    await service.dispose();
  });

  it('a deleted skill is never returned, and a get of a name no stored skill has waits for the load (a skill added since)', async () => {
    const root = library();
    const bytes = await saved(root);
    const gone = path.join(root, 'gamma', 'SKILL.md');
    rmSync(path.dirname(gone), { recursive: true });
    writeTree(root, { 'delta/SKILL.md': skillMd('delta', 'Renew the TLS certificates') });
    const gate = gatedFs(root);
    gate.opensOn(gone);
    const service = await warm(bytes, gate.fs);
    const loading = service.loadPacks([pack('p', root)]);

    const relevant = await service.getRelevant({ task: 'deploy the payment service to staging' }, ctx);
    assert.deepEqual(relevant.skills, []);
    assert.equal(gate.isOpen, true);
    assert.deepEqual(await found(service, 'payment service staging'), []);
    // Asked for by name, a skill added since the save is found: the answer waited for the load.
    const added = await service.get({ names: ['delta'] }, ctx);
    assert.match(added.formatted_context, /TLS certificates/);
    await loading;
    await service.dispose();
  });

  it('the skills of a pack the load no longer reads are never returned (removed from the settings since the save)', async () => {
    const root = library();
    const bytes = await saved(root);
    const service = await warm(bytes, nodeFileSystem);
    const loading = service.loadPacks([]);
    assert.deepEqual(await found(service, 'invoices cold storage'), []);
    assert.equal((await service.get({ names: ['beta'] }, ctx)).skills.length, 0);
    await loading;
    await service.dispose();
  });

  /**
   * The one-shot hook hands its load over to the resident hook it starts (SkillService.handOver):
   * it must not wait for the load, keep the use counts of its answer, and leave the store as it
   * was, so the next process reads what changed itself.
   */
  /** A warm start over the library with delta added after the save (older than the load, as a file added while Toolshed was closed), its load held. */
  async function warmWithDeltaAdded() {
    const root = library();
    const bytes = await saved(root);
    const before = await bytes.read('skills.db');
    writeTree(root, { 'delta/SKILL.md': skillMd('delta', 'Renew the TLS certificates of the edge proxies') });
    for (const file of ['delta/SKILL.md', 'delta', '.']) age(path.join(root, file));
    const gate = gatedFs(root);
    const service = await warm(bytes, gate.fs);
    return { root, bytes, before, gate, service, loading: service.loadPacks([pack('p', root)]) };
  }

  it('a hand-over while the load is held saves the use counts only; the next start reads the changed file itself', async () => {
    const { root, bytes, before, gate, service, loading } = await warmWithDeltaAdded();
    assert.deepEqual((await service.getRelevant({ task: 'deploy the payment service to staging' }, ctx)).skills, ['gamma']);

    await service.handOver();
    assert.equal(gate.isOpen, false, 'handed over while the load could not even list the pack folder');
    assert.deepEqual(await bytes.read('skills.db'), before, 'the store is as the last whole save left it');
    assert.match(new TextDecoder().decode(await bytes.read('skills.db.usage')), /"gamma",1,/);
    gate.release();
    assert.equal((await loading).files, 4, 'the load itself went on, and read the new file');
    await service.dispose();
    assert.deepEqual(await bytes.read('skills.db'), before, "what the load wrote is the next process's to write");

    const next = await warm(bytes, nodeFileSystem);
    const summary = await next.loadPacks([pack('p', root)]);
    assert.equal(summary.unchangedFiles, 3, 'the next start reads the new file itself');
    assert.deepEqual(await found(next, 'renew tls certificates'), ['delta: Renew the TLS certificates of the edge proxies']);
    assert.equal(next.inspect('gamma')?.use_count, 1, "the handed-over answer's use counted once");
    await next.dispose();
  });

  it('a load after a hand-over (the process went on after all) is saved whole again', async () => {
    const { root, bytes, before, gate, service, loading } = await warmWithDeltaAdded();
    await service.handOver();
    gate.release();
    await loading;
    assert.deepEqual(await bytes.read('skills.db'), before);
    await service.loadPacks([pack('p', root)]);
    assert.notDeepEqual(await bytes.read('skills.db'), before, 'the second load saved the store whole, delta in it');
    await service.dispose();
    const next = await warm(bytes, nodeFileSystem);
    assert.equal((await next.loadPacks([pack('p', root)])).unchangedFiles, 4);
    await next.dispose();
  });

  it('a hand-over after the load has ended saves what the load wrote (a cold load is not redone)', async () => {
    const root = library();
    const bytes = new MemoryByteStore();
    const cold = await warm(bytes, nodeFileSystem);
    await cold.loadPacks([pack('p', root)]);
    await cold.handOver();
    assert.ok(await bytes.read('skills.db'), 'the cold load was saved');
    const next = await warm(bytes, nodeFileSystem);
    assert.equal((await next.loadPacks([pack('p', root)])).unchangedFiles, 3);
    await Promise.all([cold.dispose(), next.dispose()]);
  });

  it('a cold start waits for the load (the store holds none of the pack)', async () => {
    const root = library();
    const gate = gatedFs(root);
    const service = await warm(new MemoryByteStore(), gate.fs);
    const loading = service.loadPacks([pack('p', root)]);
    // Asked while the load cannot list the pack folder: answered from an empty store, it would find nothing.
    const answer = found(service, 'invoices cold storage');
    gate.release();
    assert.deepEqual(await answer, [`beta: ${LIBRARY.beta}`]);
    await loading;
    await service.dispose();
  });

  it("a cold start's answer waits for the skills, not for the load's bookkeeping (its files' fingerprints)", async () => {
    const root = library();
    // The order of what happened: the fingerprints are the load's last write, which no answer reads.
    const events: string[] = [];
    const original = SkillFileFingerprints.prototype.replaceAllInSlices;
    SkillFileFingerprints.prototype.replaceAllInSlices = function (...args) {
      events.push('fingerprints written');
      return original.apply(this, args);
    };
    try {
      const gate = gatedFs(root);
      const bytes = new MemoryByteStore();
      const service = await warm(bytes, gate.fs);
      const loading = service.loadPacks([pack('p', root)]);
      const answer = found(service, 'invoices cold storage').then((skills) => {
        events.push('answered');
        return skills;
      });
      gate.release();
      assert.deepEqual(await answer, [`beta: ${LIBRARY.beta}`]);
      assert.equal((await loading).packs[0]?.skillCount, 3);
      assert.deepEqual(events, ['answered', 'fingerprints written']);
      await service.dispose();
      // The fingerprints written after the answer are saved: the next start reads no file.
      const next = await warm(bytes, nodeFileSystem);
      assert.equal((await next.loadPacks([pack('p', root)])).unchangedFiles, 3);
      await next.dispose();
    } finally {
      SkillFileFingerprints.prototype.replaceAllInSlices = original;
    }
  });

  it('a search asked as the load starts is answered before the load touches the library, with the skills the load then keeps', async () => {
    const { root, bytes } = await savedWithScript();
    // The order of what happened: the load's first step on the library is the pack folder's stat.
    const events: string[] = [];
    const fs: FileSystemPort = {
      ...nodeFileSystem,
      stat: async (file) => {
        if (file === root) events.push('the load stats the pack folder');
        return nodeFileSystem.stat(file);
      },
    };
    const service = await warm(bytes, fs);
    const loading = service.loadPacks([pack('p', root)]);
    const during = await found(service, 'signing keys release pipeline');
    events.push('answered');
    assert.deepEqual(events, ['answered']);
    assert.deepEqual(during, [`alpha: ${LIBRARY.alpha}`]);
    assert.equal((await loading).unchangedFiles, 3);
    assert.deepEqual(await found(service, 'signing keys release pipeline'), during);
    await service.dispose();
  });

  it("an early answer lists a skill's resource folders itself, and one added since the save makes it wait for the load", async () => {
    const { root, bytes } = await savedWithScript();
    // A file system whose asynchronous calls queue behind the load (held at its pack folder's stat).
    const held = (): FileSystemPort & { release(): void } => {
      let release: () => void = () => undefined;
      const opened = new Promise<void>((resolve) => (release = resolve));
      return {
        ...nodeFileSystem,
        release,
        stat: async (file) => (await opened, nodeFileSystem.stat(file)),
        readDirectory: async (folder) => (await opened, nodeFileSystem.readDirectory(folder)),
      };
    };
    const quiet = held();
    const service = await warm(bytes, quiet);
    const loading = service.loadPacks([pack('p', root)]);
    assert.deepEqual(await found(service, 'signing keys'), [`alpha: ${LIBRARY.alpha}`]);
    quiet.release();
    await loading;
    await service.dispose();

    writeTree(root, { 'alpha/scripts/verify.sh': 'echo verify\n' });
    const busy = held();
    const again = await warm(bytes, busy);
    const reloading = again.loadPacks([pack('p', root)]);
    let answered = false;
    const answer = found(again, 'signing keys').then((skills) => ((answered = true), skills));
    await Promise.resolve().then(() => new Promise((resolve) => setImmediate(resolve)));
    assert.equal(answered, false, 'a skill whose resources changed waits for the load');
    busy.release();
    assert.deepEqual(await answer, [`alpha: ${LIBRARY.alpha}`]);
    assert.equal((await reloading).unchangedFiles, 2);
    await again.dispose();
  });

  it('property: an answer during a warm load never shows a changed or deleted skill, and after the load search equals a cold load', async () => {
    const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const words = ['signing', 'invoices', 'payment', 'certificates', 'backups'];
    const change = fc.constantFrom('same', 'edited', 'deleted');
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: names.length, maxLength: names.length }), fc.boolean(), async (changes, added) => {
        const root = tempDir();
        const description = (i: number, version: number) => `Handle the ${words[i]} task, version ${version}`;
        writeTree(root, Object.fromEntries(names.map((name, i) => [`${name}/SKILL.md`, skillMd(name, description(i, 1))])));
        for (const name of names) age(path.join(root, name, 'SKILL.md'));
        const bytes = await saved(root);
        const truth = new Map<string, string>();
        names.forEach((name, i) => {
          const file = path.join(root, name, 'SKILL.md');
          if (changes[i] === 'deleted') rmSync(path.dirname(file), { recursive: true });
          else if (changes[i] === 'edited') writeFileSync(file, skillMd(name, description(i, 2)));
          if (changes[i] !== 'deleted') truth.set(name, description(i, changes[i] === 'edited' ? 2 : 1));
        });
        if (added) {
          writeTree(root, { 'zeta/SKILL.md': skillMd('zeta', 'Handle the signing task, version 3') });
          truth.set('zeta', 'Handle the signing task, version 3');
        }
        const service = await warm(bytes, nodeFileSystem);
        const loading = service.loadPacks([pack('p', root)]);
        // Every answer given while the load runs shows only what the files say now.
        const during = await Promise.all(words.map((word) => service.search({ query: `${word} task`, limit: 5 }, ctx)));
        for (const answer of during)
          for (const skill of answer.skills) assert.equal(skill.trigger, truth.get(skill.name), `${skill.name} as its file says now`);
        await loading;
        // As sets: skills tied on the shared words rank by their order in the index, which edits change.
        const all = async (service: SkillService, word: string) => (await found(service, `${word} task`, 10)).sort();
        const after = await Promise.all(words.map((word) => all(service, word)));
        await service.dispose();

        const cold = await createHeadlessSkillService({ engine: await engine(), store: new MemoryByteStore() });
        await cold.loadPacks([pack('p', root)]);
        const fresh = await Promise.all(words.map((word) => all(cold, word)));
        await cold.dispose();
        assert.deepEqual(after, fresh);
      }),
      { numRuns: 12 },
    );
  });
});
