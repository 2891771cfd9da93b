// @ts-check
// Page check: a person types "@toolshed …" in the real Chat view and watches a
// deferred tool being found, activated and used (scripted model, no network).
// Screenshot: test-results/screenshots/chat-participant.png.
import assert from 'node:assert/strict';
import { askInNewChat, readWithStepsOpen } from './lib/workbench.mjs';

/** @param {import('./lib/workbench.mjs').PageCheckContext} context */
export async function chatParticipantFindsAndUsesADeferredTool({ page, screenshot }) {
  try {
    await askToolshedInTheChatView(page, screenshot);
  } finally {
    // Never leave a dialog (e.g. a sign-in prompt) over the workbench for the next checks.
    await page.keyboard.press('Escape');
  }
}

/**
 * @param {import('./lib/workbench.mjs').Page} page
 * @param {import('./lib/workbench.mjs').PageCheckContext['screenshot']} screenshot
 */
async function askToolshedInTheChatView(page, screenshot) {
  await askInNewChat(page, { script: 'Toolshed Test: Script Weather Demo', request: '@toolshed What is the weather in Oslo?', hidePanel: true });
  const answer = page.locator('.interactive-response', { hasText: 'sunny' }).first();
  await answer.waitFor({ timeout: 60_000 });
  await page
    .locator('.interactive-response', { hasText: /fewer\)/ })
    .first()
    .waitFor({ timeout: 30_000 });
  // Done means VS Code marked it complete: it re-renders the steps folded at that moment.
  await page.locator('.interactive-response.chat-response-loading').first().waitFor({ state: 'detached', timeout: 30_000 });
  const text = await page.locator('.interactive-list').first().innerText();
  assert.match(text, /Forecast for Oslo: sunny/, "the answer uses the deferred tool's result");
  assert.match(
    text,
    /Toolshed sent [\d +]+ of \d+ tools( over \d+ rounds)?: [\d,]+ tokens of tool definitions/,
    'the token saving line, summed over every round, is shown',
  );
  assert.doesNotMatch(text, /<sub>|<\/?[a-z]+>/, 'no raw HTML in the response');
  // Expand the collapsed progress ("Completed N steps") so the steps are read and the screenshot
  // shows the discovery; the run step can be in the collapsed response already, the search step is not.
  const response = await readWithStepsOpen(page.locator('.interactive-response').last(), /Searching tools for "/);
  // Every step is visible in the answer (VS Code hides transient progress once a response is done).
  assert.match(response, /Searching tools for "[^"]+"/, 'the search step is visible');
  assert.match(response, /Running fixture_weather_forecast|Running `?fixture_weather_forecast/, 'the run step is visible');
  // "Completed N steps" counts no more than what it shows: the step lines plus the tool call VS Code lists.
  const counted = Number(/Completed (\d+) steps?/.exec(response)?.[1] ?? 0);
  const shown = (response.match(/^(Searching tools for|Activated|Running|Using skill|Looking up skills|Starting MCP servers)/gm) ?? []).length;
  assert.ok(counted <= shown + 1, `"Completed ${counted} steps" but ${shown} step lines are visible:\n${response}`);
  await screenshot('chat-participant');
}
