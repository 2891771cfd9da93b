// @ts-check
// Page check for the untrusted team-workspace pass (test/fixtures/team-workspace opened in
// Restricted Mode: two skills in .github/skills, two in the team pack its settings configure):
// `@toolshed /skills` typed into VS Code's real Chat view lists the built-in skills AND says, in
// the answer, that the four workspace skills are hidden, where they are, and how to use them.
import assert from 'node:assert/strict';
import { focusChatInput, runCommand } from '../lib/workbench.mjs';

/** @param {import('../lib/workbench.mjs').PageCheckContext} context */
export async function skillsInTheChatViewSaysWhatIsHidden({ page, screenshot }) {
  try {
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    // A model must be selected for the Chat view to send anything, even a slash command.
    await runCommand(page, 'Toolshed Test: Script Weather Demo');
    await runCommand(page, 'Chat: Open Chat');
    await runCommand(page, 'Chat: New Chat').catch(() => page.keyboard.press('Escape'));
    await focusChatInput(page);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('@toolshed /skills', { delay: 10 });
    // The slash command's completion may be open: Escape closes it, so Enter sends the request.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    const answer = page.locator('.interactive-response', { hasText: /Skills \(\d+ shown of \d+/ }).first();
    await answer.waitFor({ timeout: 60_000 });
    await page.locator('.interactive-response.chat-response-loading').first().waitFor({ state: 'detached', timeout: 30_000 });
    const text = await answer.innerText();
    assert.match(
      text,
      /Restricted Mode: 4 workspace skill files \(\.github\/skills 2, team-skills 2\) and the skill pack team from its settings not used — this workspace is not trusted\. Manage Workspace Trust to use them\./,
      text,
    );
    assert.doesNotMatch(text, /Completed \d+ steps?/, 'nothing folded away');
    assert.doesNotMatch(text, /review-pr|bump-version|deploy-staging|rotate-logs/, 'no hidden skill is listed');
    await screenshot('restricted-mode-skills-command');
    // The trust action is a link in the answer; it opens VS Code's Workspace Trust editor.
    await answer.getByRole('link', { name: 'Manage Workspace Trust' }).first().click();
    await page.locator('.workspace-trust-editor, .tab:has-text("Workspace Trust")').first().waitFor({ timeout: 20_000 });
  } finally {
    await page.keyboard.press('Escape');
  }
}
