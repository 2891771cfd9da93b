import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ScriptConfirmationRequest } from '../../../src/vscode/skills/skillScriptRunner';
import { scriptedModel, toolshed } from './helpers';
import { askToolshed, lastToolResultText, withSettings } from './chatHelpers';

const SCRIPT_TOOL = 'count-lines_count_lines';

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the example workspace is open');
  return folder;
}

/** Round 2 of the script: call the script tool tool_search returned, with --save. */
function callFoundScript(request: never) {
  const found = JSON.parse(lastToolResultText(request)) as { tools: Array<{ name: string }> };
  const tool = found.tools.find((t) => t.name === SCRIPT_TOOL);
  return [{ toolCall: { name: tool ? tool.name : 'script_not_found', input: { args: ['README.md'], save: true } } }];
}

suite('skill scripts as tools (scripted model, real process)', () => {
  const sideEffect = () => path.join(workspaceFolder(), 'line-counts.txt');
  let restorePrompt: (() => void) | undefined;

  setup(async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    await api.services.skillScripts.refresh();
    rmSync(sideEffect(), { force: true });
    const original = api.services.scriptRuns.prompt;
    restorePrompt = () => (api.services.scriptRuns.prompt = original);
  });

  teardown(() => {
    restorePrompt?.();
    rmSync(sideEffect(), { force: true });
  });

  test('tool_search finds the script tool, the confirmation shows exactly what runs, the process runs and its output reaches the model', async () => {
    const api = await toolshed();
    const asked: ScriptConfirmationRequest[] = [];
    api.services.scriptRuns.prompt = async (request) => {
      asked.push(request);
      return 'Run';
    };
    const model = await scriptedModel();
    model.setScript([
      [{ toolCall: { name: 'tool_search', input: { query: 'count the lines of a file' } } }],
      (request) => callFoundScript(request as never),
      (request) => `Counted: ${lastToolResultText(request as never)}`,
    ]);
    const { recorded } = await askToolshed('How many lines does README.md have?');

    assert.ok(!model.requests[0].toolNames.includes(SCRIPT_TOOL), 'deferred until found');
    assert.ok(model.requests[1].toolNames.includes(SCRIPT_TOOL), 'offered after tool_search found it');
    const offered = model.requests[1].tools.find((t) => t.name === SCRIPT_TOOL);
    assert.match(offered?.description ?? '', /Count the lines of the given files/);

    assert.equal(asked.length, 1, 'one confirmation for one call');
    const folder = workspaceFolder();
    const detail = asked[0].detail;
    assert.match(detail, /^Skill: count-lines$/m);
    assert.match(detail, /^Interpreter: \/\S*\/node$/m);
    assert.ok(detail.includes(`Script: ${path.join(folder, '.github', 'skills', 'count-lines', 'scripts', 'count_lines.js')}`), detail);
    assert.match(detail, /^Arguments: --save README\.md$/m);
    assert.ok(detail.includes(`Working directory: ${folder}`), detail);
    assert.match(detail, /^allowed-tools: Bash\(node:\*\) Read$/m);
    assert.deepEqual(asked[0].choices, ['Run', 'Allow for this session'], 'never "always"');

    const result = lastToolResultText(model.requests[2] as never);
    assert.match(result, /count-lines_count_lines: exit code 0/);
    assert.match(result, /README\.md: \d+ lines/);
    assert.ok(existsSync(sideEffect()), 'the real process ran in the workspace folder');
    assert.match(recorded.markdown(), /Counted: .*README\.md: \d+ lines/s);
  });

  test('declined: the process does not run, and the model is told so', async () => {
    const api = await toolshed();
    let asked = 0;
    api.services.scriptRuns.prompt = async () => {
      asked++;
      return undefined;
    };
    const model = await scriptedModel();
    model.setScript([
      [{ toolCall: { name: 'tool_search', input: { query: 'count the lines of a file' } } }],
      (request) => callFoundScript(request as never),
      'ok',
    ]);
    await askToolshed('How many lines does README.md have?');
    assert.equal(asked, 1);
    assert.match(lastToolResultText(model.requests[2] as never), /The user declined to run count-lines_count_lines/);
    assert.equal(existsSync(sideEffect()), false, 'no side effect: nothing ran');
  });

  test('a script tool denied by policy is neither found nor run', async () => {
    await withSettings({ 'toolshed.toolSearch.deny': ['count-lines_*'] }, async () => {
      const api = await toolshed();
      let asked = 0;
      api.services.scriptRuns.prompt = async () => {
        asked++;
        return 'Run';
      };
      const model = await scriptedModel();
      model.setScript([
        [{ toolCall: { name: 'tool_search', input: { query: 'count the lines of a file' } } }],
        [{ toolCall: { name: SCRIPT_TOOL, input: { args: ['README.md'], save: true } } }],
        'ok',
      ]);
      await askToolshed('How many lines does README.md have?');
      assert.ok(!lastToolResultText(model.requests[1] as never).includes(SCRIPT_TOOL), 'not found');
      assert.equal(asked, 0);
      assert.equal(existsSync(sideEffect()), false);
    });
  });

  test("a retired skill's scripts are out of use too: neither found nor run; Restore offers them again", async () => {
    const api = await toolshed();
    let asked = 0;
    api.services.scriptRuns.prompt = async () => {
      asked++;
      return 'Run';
    };
    assert.equal(await vscode.commands.executeCommand('toolshed.retireSkill', 'count-lines'), true);
    try {
      await api.services.skillScripts.ready;
      assert.equal(api.services.skillScripts.has(SCRIPT_TOOL), false, 'not in the script registry');
      const model = await scriptedModel();
      model.setScript([
        [{ toolCall: { name: 'tool_search', input: { query: 'count the lines of a file' } } }],
        [{ toolCall: { name: SCRIPT_TOOL, input: { args: ['README.md'], save: true } } }],
        'ok',
      ]);
      await askToolshed('How many lines does README.md have?');
      assert.ok(!lastToolResultText(model.requests[1] as never).includes(SCRIPT_TOOL), 'tool_search does not find it');
      assert.equal(asked, 0, 'no confirmation asked');
      assert.equal(existsSync(sideEffect()), false, 'nothing ran');
    } finally {
      await vscode.commands.executeCommand('toolshed.restoreSkill', 'count-lines');
      await api.services.skillScripts.ready;
    }
    assert.equal(api.services.skillScripts.has(SCRIPT_TOOL), true, 'restored: offered again');
  });

  test('bad scripts: a risky one gets a SKILL.md warning and a ⚠ line in the confirmation; a hanging one is stopped at scriptTimeoutMs; a symlink is not offered', async () => {
    const api = await toolshed();
    const folder = path.join(workspaceFolder(), '.github', 'skills', 'net-probe');
    mkdirSync(path.join(folder, 'scripts'), { recursive: true });
    writeFileSync(
      path.join(folder, 'SKILL.md'),
      '---\nname: net-probe\ndescription: Probe the network and wait. Test fixture for risky and hanging scripts.\n---\n\n# Net probe\n',
    );
    writeFileSync(path.join(folder, 'scripts', 'upload.sh'), '#!/bin/sh\n# Upload the report.\ncurl -d @report.txt https://example.invalid/upload\n');
    writeFileSync(path.join(folder, 'scripts', 'wait.js'), '// Wait forever.\nsetInterval(() => {}, 1000);\n');
    symlinkSync('/etc/hostname', path.join(folder, 'scripts', 'outside.sh'));
    chmodSync(path.join(folder, 'scripts', 'upload.sh'), 0o644);
    try {
      await api.services.skillPacks.reload();
      await api.services.skillScripts.refresh();
      assert.ok(api.services.skillScripts.has('net-probe_upload'));
      assert.ok(!api.services.skillScripts.has('net-probe_outside'), 'a symlink is never offered');
      const messages = vscode.languages.getDiagnostics(vscode.Uri.file(path.join(folder, 'SKILL.md'))).map((d) => `${d.severity}:${d.message}`);
      assert.ok(
        messages.some((m) => m.startsWith(`${vscode.DiagnosticSeverity.Warning}:`) && /upload\.sh opens network connections .*not a guarantee/.test(m)),
        messages.join('\n'),
      );
      assert.ok(
        messages.some((m) => /outside\.sh is a symbolic link and is not offered/.test(m)),
        messages.join('\n'),
      );

      const asked: ScriptConfirmationRequest[] = [];
      api.services.scriptRuns.prompt = async (request) => {
        asked.push(request);
        return undefined;
      };
      const token = new vscode.CancellationTokenSource().token;
      const declined = await api.services.scriptRuns.run('net-probe_upload', {}, token);
      assert.equal(asked.length, 1, declined.text);
      assert.match(asked[0].detail, /⚠ Static check: the script opens network connections \(line 3: curl/);

      await withSettings({ 'toolshed.skills.scriptTimeoutMs': 1000 }, async () => {
        api.services.scriptRuns.prompt = async () => 'Run';
        const result = await api.services.scriptRuns.run('net-probe_wait', {}, token);
        assert.match(result.text, /timed out after 1000 ms and was stopped/);
        assert.equal(result.isError, true);
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await api.services.skillPacks.reload();
      await api.services.skillScripts.refresh();
    }
  });
});
