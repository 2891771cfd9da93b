import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, toolshed } from './helpers';
import { askToolshed } from './chatHelpers';

/**
 * Runs only in the host pass that opens test/fixtures/team-workspace untrusted (trust on): a
 * workspace like a user's — two skills in `.github/skills`, two in a team pack folder its
 * workspace settings configure. `/skills` must say, in its answer, that these four workspace
 * skills are hidden and where they are, as the sidebar does, with a link to Manage Workspace Trust.
 */
suite('untrusted team workspace: /skills says what is hidden', () => {
  const HIDDEN =
    /Restricted Mode: 4 workspace skill files \(`\.github\/skills` 2, `team-skills` 2\) and the skill pack `team` from its settings not used — this workspace is not trusted\. Manage Workspace Trust to use them\./;

  test('the workspace is the team fixture, untrusted', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.match(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', /workspace$/);
    const files = await vscode.workspace.findFiles('team-skills/*');
    assert.equal(files.length, 2, 'the team pack folder holds two skill files');
  });

  test('/skills lists the built-in skills and says that the four workspace skills are hidden, where, and how to use them', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const { recorded } = await askToolshed('', { command: 'skills' });
    const text = recorded.markdown();
    assert.match(text, /\*\*Skills\*\* \(\d+ shown of \d+/, 'the built-in skills are listed');
    assert.match(text, HIDDEN, text);
    assert.ok(
      text.split(/\n{2,}/).some((paragraph) => HIDDEN.test(paragraph) && !paragraph.startsWith('>')),
      'in the answer text, not a folded step',
    );
    assert.match(text, /\[Manage Workspace Trust\]\(command:workbench\.trust\.manage\)/);
    assert.deepEqual(
      recorded.parts.filter((part) => part.kind !== 'markdown').map((part) => part.kind),
      [],
      'only Markdown: nothing the Chat view folds the line into',
    );
    assert.doesNotMatch(text, /`(review-pr|bump-version|deploy-staging|rotate-logs)`/, 'no hidden skill is named');
  });

  test('the sidebar says the same', async () => {
    const rendered = await eventually(async () => {
      const tree = await vscode.commands.executeCommand<{ items: Array<{ label: string; id?: string }> }>('toolshed._skillDirectoryItems');
      return tree.items.length ? tree : undefined;
    }, 'the skill tree');
    assert.match(rendered.items[0]!.label, HIDDEN);
  });
});
