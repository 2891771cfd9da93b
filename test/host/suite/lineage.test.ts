import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { lineageOf } from '../../../src/core/learning/merge/lineage';
import type { Trajectory } from '../../../src/core/learning/trajectory';
import { toolshed } from './helpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';

const turnOf = (request: string, sessionId: string): Trajectory => ({
  sessionId, request, stoppedBecause: 'done', skillsUsed: [], at: Date.now(),
  calls: [{ tool: WEATHER, input: { city: 'Oslo' }, ok: true }, { tool: WEATHER, input: { city: 'Bergen' }, ok: true }, { tool: ISSUE, input: { title: 'Forecast' }, ok: true }],
});

suite('Learned skills: merge with lineage, export / import (real extension host)', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-lineage-host-'));
  const names: string[] = [];

  suiteTeardown(async () => {
    const api = await toolshed();
    for (const proposal of [...api.services.learning.service.approvedLessons(), ...api.services.learning.service.proposals()]) {
      if (names.includes(proposal.approved_name) || proposal.candidate.trigger.includes('Tromsø')) await api.services.learning.service.discard(proposal.id);
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
    assert.ok(service.proposals().some((p) => p.id === b.id), 'the merged proposal is pending again');
  });
});
