import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { readLastDecisions } from '../../../src/core/runtimes/doors/doorDecision';
import { explainDoorDecisionMarkdown } from '../../../src/core/runtimes/doors/explainDoorDecision';
import { contextOf, doorFolder, eventFor, makeWorld, runHook, UNRELATED_PROMPT, writeSkill } from './hookFixtures';
import type { HookWorld } from './hookFixtures';

/**
 * Candidates that pass the gate but are not confident enough to inject on their own are what
 * `@toolshed` would put to a model; the hook has none, so it names them, with their
 * descriptions, for the runtime's model to load if one fits — and never injects their text.
 */
describe('toolshed hook: skills offered to the runtime’s model (real processes)', function () {
  this.timeout(120_000);
  let w: HookWorld;
  before(() => {
    w = makeWorld();
    const folder = path.join(w.home, '.claude', 'skills');
    writeSkill(
      folder,
      'postgres-migration',
      'Write and review a PostgreSQL schema migration safely: locks, backfills in batches, a rollback',
      'MARKER-POSTGRES-BODY',
    );
    writeSkill(
      folder,
      'kubernetes-deploy',
      'Deploy a service to a Kubernetes cluster with a rolling update, readiness checks and a rollback plan',
      'MARKER-K8S-BODY',
    );
    writeSkill(folder, 'release-notes', 'Write the release notes for a new version from the merged pull requests and the changelog', 'MARKER-RELEASE-BODY');
  });
  after(() => rmSync(w.root, { recursive: true, force: true }));

  it('a request the gate is unsure of names the candidates with their descriptions, and injects no skill text', async () => {
    const run = await runHook(w, 'claude', eventFor('claude', w, 'schema migration tonight for billing, then the service update, each with a rollback plan'));
    assert.equal(run.code, 0, run.stderr);
    const context = contextOf('claude', run.stdout);
    assert.match(context, /^<skill_directory>\n/);
    assert.match(context, /^- postgres-migration: Write and review a PostgreSQL schema migration safely/m);
    assert.match(context, /^- kubernetes-deploy: Deploy a service to a Kubernetes cluster/m);
    assert.doesNotMatch(context, /release-notes/, 'a skill below the gate is not offered');
    assert.doesNotMatch(context, /MARKER-/, 'an offered skill’s own text is not injected');
    // `toolshed why` says what was offered, apart from what was injected.
    const why = explainDoorDecisionMarkdown(readLastDecisions(doorFolder(w)).decisions.find((d) => d.door === 'hook')!);
    assert.match(why, /No skill text was handed to the model\./);
    assert.match(why, /^Offered by name and description, for the model to load if one fits: .*`postgres-migration`/m);
  });

  it('a confident match is injected, not offered; an unrelated prompt gets neither', async () => {
    const confident = contextOf('claude', (await runHook(w, 'claude', eventFor('claude', w, 'draft the changelog for the new version'))).stdout);
    assert.match(confident, /MARKER-RELEASE-BODY/);
    assert.doesNotMatch(confident, /<skill_directory>/);
    const unrelated = await runHook(w, 'claude', eventFor('claude', w, UNRELATED_PROMPT));
    assert.equal(unrelated.stdout, '');
  });
});
