// @ts-check
// Page check of skills that learn: a person asks @toolshed something that takes
// three tool calls, sees "Save this as a skill…" under the answer, clicks it, and finds the
// proposal in the Skill Directory's Proposed group. Screenshots (docs/skills.md, "Skills that learn"):
// test-results/screenshots/learning-chat.png, test-results/screenshots/learning-proposed.png.
import assert from 'node:assert/strict';
import { askInNewChat, fontsReady, openToolshedSidebar } from './lib/workbench.mjs';

/** @param {import('./lib/workbench.mjs').PageCheckContext} context */
export async function learnedSkillIsProposedAfterATurn({ page, screenshot }) {
  try {
    await proposeFromChat(page, screenshot);
  } finally {
    await page.keyboard.press('Escape');
  }
}

/**
 * @param {import('./lib/workbench.mjs').Page} page
 * @param {import('./lib/workbench.mjs').PageCheckContext['screenshot']} screenshot
 */
async function proposeFromChat(page, screenshot) {
  // Not the in-host suite's wording: a discarded proposal is never proposed again.
  await askInNewChat(page, {
    script: 'Toolshed Test: Script Learning Demo',
    request: '@toolshed Get the weekend forecast for Oslo and Bergen and open an issue that sums it up',
    hidePanel: true,
    typingDelay: 5,
  });
  await page.locator('.interactive-response', { hasText: 'Created issue' }).first().waitFor({ timeout: 60_000 });
  const followup = page.getByText('Save this as a skill…').first();
  await followup.waitFor({ timeout: 30_000 });
  await followup.click();
  const proposal = page.locator('.interactive-response', { hasText: 'Proposed skill' }).first();
  await proposal.waitFor({ timeout: 30_000 });
  // The chat renders streamed markdown progressively: wait for the last part (the buttons).
  await proposal.getByRole('button', { name: 'Discard' }).first().waitFor({ timeout: 30_000 });
  await proposal.filter({ hasText: /fixture_weather_forecast/ }).waitFor();
  const text = await proposal.innerText();
  assert.match(text, /fixture_weather_forecast/, 'the proposal names the tools in order');
  assert.doesNotMatch(text, /Sunny in Oslo and Bergen/, 'argument values never reach the proposal');
  await fontsReady(page);
  await screenshot('learning-chat');

  // The Proposed group in the Skill Directory.
  await openToolshedSidebar(page);
  const sidebar = page.locator('.part.sidebar');
  await sidebar
    .locator('.pane-header', { hasText: /Skill Directory/i })
    .first()
    .hover();
  await sidebar
    .locator('.pane-header .action-label[aria-label*="Collapse All"]')
    .first()
    .click({ timeout: 10_000 })
    .catch(() => undefined);
  // Rows of the Skill Directory only: the Activated Tools view lists the same turn by its request.
  const directory = sidebar.locator('.pane:has(> .pane-header:has-text("Skill Directory"))');
  const group = directory.locator('.monaco-list-row', { hasText: /^Proposed/ }).first();
  await group.waitFor({ timeout: 30_000 });
  if ((await group.getAttribute('aria-expanded')) === 'false') await group.click();
  const row = directory.locator('.monaco-list-row', { hasText: /Get the weekend forecast/ }).first();
  await row.waitFor({ timeout: 30_000 });
  await row.hover();
  // The row's inline actions appear on hover; the screenshot shows them.
  const discard = row.locator('.action-label[aria-label*="Discard"]').first();
  await discard.waitFor({ state: 'visible' });
  await screenshot('learning-proposed');
  // Discarding (the inline action) removes the proposal, which also leaves the sidebar as it was.
  await discard.click();
  await row.waitFor({ state: 'detached' });
}
