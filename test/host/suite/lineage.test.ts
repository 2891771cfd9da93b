import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { sourceHash } from '../../../src/core/learning/extraction/learnedCandidate';
import type { LearnedCandidate } from '../../../src/core/learning/extraction/learnedCandidate';
import { lineageOf } from '../../../src/core/learning/merge/lineage';
import type { Trajectory } from '../../../src/core/learning/extraction/trajectory';
import { withSettings } from './chatHelpers';
import { eventually, toolshed } from './helpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';

const turnOf = (request: string, sessionId: string): Trajectory => ({
  sessionId,
  request,
  stoppedBecause: 'done',
  skillsUsed: [],
  at: Date.now(),
  calls: [
    { tool: WEATHER, input: { city: 'Oslo' }, ok: true },
    { tool: WEATHER, input: { city: 'Bergen' }, ok: true },
    { tool: ISSUE, input: { title: 'Forecast' }, ok: true },
  ],
});

suite('Learned skills: merge with lineage, export / import (real extension host)', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-lineage-host-'));
  const names: string[] = [];

  suiteTeardown(async () => {
    const api = await toolshed();
    for (const proposal of [...api.services.learning.service.approvedLessons(), ...api.services.learning.service.proposals()]) {
      if (names.includes(proposal.approved_name) || /Tromsø|Trondheim/.test(proposal.candidate.trigger))
        await api.services.learning.service.discard(proposal.id);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('two paraphrased proposals approve into one learned skill with lineage 2; undo restores it; export → corrupt import refused', async () => {
    const api = await toolshed();
    const service = api.services.learning.service;
    const a = (await service.ingest(turnOf('Check the weather forecast in Tromsø and Bergen, then create an issue with the summary', 'lineage-a'))).proposal!;
    const b = (await service.ingest(turnOf('check weather forecast for Tromsø and Bergen then create issue with summary', 'lineage-b'))).proposal!;
    assert.notEqual(a.id, b.id);
    const first = await vscode.commands.executeCommand<string>('toolshed.learning.approveProposal', a.id);
    names.push(first);
    const second = await vscode.commands.executeCommand<string>('toolshed.learning.approveProposal', b.id);
    assert.equal(second, first, 'merged into the first skill');
    const record = api.services.skills.learnedSkills().find((r) => r.name === first)!;
    assert.equal(lineageOf(record)?.source_hashes.length, 2);
    assert.equal(api.services.skills.learnedSkills().filter((r) => r.trigger.includes('Tromsø')).length, 1, 'one learned skill, not two');

    const snapshot = path.join(dir, 'learned.jsonl');
    const exported = await vscode.commands.executeCommand<{ learned: number }>('toolshed.learning.exportLearnedSkills', vscode.Uri.file(snapshot));
    assert.ok(exported.learned >= 1);
    assert.match(readFileSync(snapshot, 'utf8').split('\n')[0]!, /"format":"toolshed-learned-skills","version":1/);

    const broken = path.join(dir, 'broken.jsonl');
    writeFileSync(broken, readFileSync(snapshot, 'utf8').slice(0, 150));
    const before = JSON.stringify(api.services.skills.learnedSkills());
    const refused = await vscode.commands.executeCommand<{ error: string }>('toolshed.learning.importLearnedSkills', vscode.Uri.file(broken));
    assert.match(refused.error, /not valid JSON \(corrupt or truncated\)/);
    assert.equal(JSON.stringify(api.services.skills.learnedSkills()), before, 'nothing changed');
    const again = await vscode.commands.executeCommand<{ unchanged: string[] }>('toolshed.learning.importLearnedSkills', vscode.Uri.file(snapshot));
    assert.ok(again.unchanged.includes(first), 'importing its own export changes nothing');

    assert.ok(await vscode.commands.executeCommand<boolean>('toolshed.learning.undoMerge', first, b.candidate.source_hash));
    assert.equal(lineageOf(api.services.skills.learnedSkills().find((r) => r.name === first)!), undefined);
    assert.ok(
      service.proposals().some((p) => p.id === b.id),
      'the merged proposal is pending again',
    );
  });

  test('a model-written proposal that would change a learned skill is a merge proposal: a diff first, merged only when approved', async () => {
    const warning = 'The forecast tool rejects misspelled city names: check the spelling first.';
    // A model extractor that keeps the procedure and adds a failure mode (new text for the existing skill).
    const rewriting = async (_t: Trajectory, fallback: LearnedCandidate): Promise<LearnedCandidate> => ({
      ...fallback,
      failure_modes: [warning],
      source_hash: sourceHash(fallback.trigger, fallback.steps, fallback.task_type),
    });
    await withSettings({ 'toolshed.learning.extractor': 'model' }, async () => {
      const api = await toolshed();
      const service = api.services.learning.service;
      const a = (await service.ingest(turnOf('Check the weather forecast in Trondheim and Bergen, then create an issue with the summary', 'review-a')))
        .proposal!;
      const first = await vscode.commands.executeCommand<string>('toolshed.learning.approveProposal', a.id);
      names.push(first);
      const b = (
        await service.ingest(turnOf('check weather forecast for Trondheim and Bergen then create issue with summary', 'review-b'), { extractor: rewriting })
      ).proposal!;
      assert.equal(b.origin, 'model');
      const skill = () => api.services.skills.learnedSkills().find((r) => r.name === first)!;
      const before = JSON.stringify(skill());

      // Shown as a merge proposal in the Skill Directory…
      type Tree = { items: Array<{ id?: string; description?: string }> };
      const tree = await eventually(async () => {
        const rendered = await vscode.commands.executeCommand<Tree>('toolshed._skillDirectoryItems');
        return rendered.items.find((item) => item.id === `proposal:${b.id}`);
      }, 'proposal listed');
      assert.match(tree.description ?? '', new RegExp(`merges into ${first.replace(/\./g, '\\.')} \\(review\\)`));
      // …and approving it opens the diff instead of merging.
      assert.equal(await vscode.commands.executeCommand<string | undefined>('toolshed.learning.approveProposal', b.id), undefined);
      assert.equal(JSON.stringify(skill()), before, 'the learned skill is untouched');
      assert.equal(service.proposal(b.id)?.status, 'proposed');
      const diff = await eventually(
        () =>
          vscode.window.tabGroups.all
            .flatMap((group) => group.tabs)
            .find((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.label.startsWith(`Merge into ${first}`)),
        'merge diff open',
      );
      const input = diff.input as vscode.TabInputTextDiff;
      assert.ok(!readFileSync(input.original.fsPath, 'utf8').includes(warning));
      assert.ok(readFileSync(input.modified.fsPath, 'utf8').includes(warning), 'the diff shows the line the merge adds');
      assert.match(diff.label, /adds 1 failure mode/);

      // Approve Merge (the notification's button runs this): merged, with lineage.
      assert.equal(await vscode.commands.executeCommand<string>('toolshed.learning.approveProposal', b.id, { confirmMerge: true }), first);
      assert.ok(skill().failure_modes.includes(warning));
      assert.deepEqual(
        lineageOf(skill())?.merged_from.map((source) => source.proposal_id),
        [b.id],
      );
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });
  });
});
