// @ts-check
// The newcomer's view, tested: the `npm start` profile (Toolshed + the offline demo model from
// examples/demo-model, example workspace trusted, no test driver, pre-activation at its default)
// in the offline host, with a page check that asks `@toolshed` in the real Chat view twice:
// the README's question, whose tool Toolshed activates before round 1 so the model calls it
// directly (2 model requests), and a question whose words name no tool, where the model finds
// it with `tool_search` first (3 model requests). Screenshot of the first: demo-start.png.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXAMPLE_WORKSPACE, REPO_ROOT, startHost } from '../offlineHost.mjs';
import { focusChatInput, readWithStepsOpen, runCommand } from '../ui/lib/workbench.mjs';

const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');
/** The README's question: its tool is activated before round 1 because it matches. */
export const DEMO_REQUEST = 'Which tests are flaky on CI this week?';
/** The README's second question: no tool name in its words, so the model searches. */
export const DEMO_SEARCH_REQUEST = 'Is the air in Bergen safe to breathe today?';

/**
 * Types `@toolshed REQUEST` and waits for the whole answer (the footer's "Model requests" line
 * comes last). Right after start-up the extension host may not have resolved the model yet
 * ("Language model unavailable", raised by VS Code before any participant runs): asks again once
 * that failed request is finished, as a person would. Nothing the page can see says when the
 * extension host has the model (the picker already shows it), so the retries go on until
 * MODEL_READY_MS has passed — a bound for a broken host, not a pause. Returns the answer's
 * element, its steps expanded.
 * @param {import('../ui/lib/workbench.mjs').Page} page
 * @param {string} request
 */
async function ask(page, request) {
  const responses = page.locator('.interactive-response');
  const deadline = Date.now() + MODEL_READY_MS;
  for (let attempt = 1; ; attempt++) {
    const before = await responses.count();
    await focusChatInput(page);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(`@toolshed ${request}`, { delay: 10 });
    await page.keyboard.press('Enter');
    const response = responses.nth(before);
    const outcome = await Promise.race([
      response
        .filter({ hasText: /answered:/ })
        .waitFor({ timeout: 90_000 })
        .then(() => 'answered'),
      response
        .filter({ hasText: /Language model unavailable/ })
        .waitFor({ timeout: 90_000 })
        .then(() => 'unavailable'),
    ]);
    if (outcome === 'answered') {
      await response.filter({ hasText: /Model requests: \d+/ }).waitFor({ timeout: 30_000 });
      // Done means VS Code marked it complete: it re-renders the steps folded at that moment.
      await page.locator('.interactive-response.chat-response-loading').first().waitFor({ state: 'detached', timeout: 30_000 });
      // Expand the collapsed progress ("Completed N steps") so the steps are read and shown.
      await readWithStepsOpen(response, STEP);
      return response;
    }
    if (Date.now() > deadline) throw new Error(`the demo model stayed unavailable for ${MODEL_READY_MS / 1000} s (${attempt} attempts)`);
    await page.locator('.interactive-response.chat-response-loading').first().waitFor({ state: 'detached', timeout: 30_000 });
  }
}

/** How long the demo model may stay unavailable after start-up before the pass fails. */
const MODEL_READY_MS = 120_000;

/** A step line of a demo answer: a tool activated for the request, or a search. */
const STEP = /\(matched your request[^)]*\)|Searching tools for/;

/**
 * Saves a screenshot that shows the answer's steps: taken again (at most 3 times) when the steps
 * were folded by a late re-render by the time it was taken.
 * @param {import('../ui/lib/workbench.mjs').Page} page
 * @param {import('../ui/lib/workbench.mjs').Locator} response
 * @param {string} name
 */
async function screenshotWithSteps(page, response, name) {
  for (let attempt = 1; ; attempt++) {
    await readWithStepsOpen(response, STEP);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, name) });
    if (await response.getByText(STEP).first().isVisible()) return;
    if (attempt === 3) throw new Error(`the steps folded again while ${name} was taken, 3 times`);
  }
}

/** @param {import('../ui/lib/workbench.mjs').Page} page */
async function openChatWithTheDemoModel(page) {
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  await runCommand(page, 'Chat: Open Chat');
  await page.locator('.interactive-input-part').first().waitFor({ timeout: 30_000 });
  // The chat picks the demo model by itself once its extension has registered it.
  await page
    .locator('.interactive-input-part', { hasText: /Toolshed Demo/ })
    .first()
    .waitFor({ timeout: 60_000 });
  // Room for the whole answer, steps to footer, in the screenshot: a taller window, no explorer,
  // and the chat dragged wider by its sash — under 601 px, where VS Code would open its sessions
  // list beside the chat.
  await page.setViewportSize({ width: 1400, height: 1200 });
  await runCommand(page, 'View: Close Primary Side Bar').catch(() => page.keyboard.press('Escape'));
  const box = await page.locator('.part.auxiliarybar').boundingBox();
  if (box && box.width < 590) {
    await page.mouse.move(box.x - 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 590, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
  }
}

/** What the whole first answer must show: the lean turn. @param {string} text */
function assertCalledDirectly(text) {
  assert.match(text, /Activated ci_list_flaky_tests \(matched your request[^)]*\)/, `the pre-activation step is shown:\n${text}`);
  assert.doesNotMatch(text, /Searching tools for/, `no tool_search round:\n${text}`);
  assert.match(text, /ci_list_flaky_tests answered: .*login\.spec\.ts/, "the answer carries the tool's result");
  assert.match(text, /called it directly, without a tool_search round/, 'the demo model says it called a listed tool');
  assert.match(text, /triage-flaky-tests/, 'the workspace skill was injected (the example workspace is trusted)');
  assert.match(text, /offline, rule-based/, 'the demo model is clearly labelled');
  assert.match(
    text,
    /Activated \d+ tools? matching your request before the first round: .*ci_list_flaky_tests \(\d\.\d\d\)/,
    'the footer names the matched tool and its relevance',
  );
  // "Toolshed sent 7 + 7 of 142 tools over 2 rounds: …" (summed over every round).
  const sent = /Toolshed sent ([\d +]+) of (\d+) tools over 2 rounds/.exec(text);
  assert.ok(sent, `the token footer counts 2 rounds:\n${text}`);
  assert.ok(Number(sent[2]) >= 100, `100+ tools were available (footer: ${sent[0]})`);
  assert.match(text, /Tool search: \d+ tools, .* deferred/, 'the footer says why tools were deferred');
  assert.match(text, /Model requests: 2 \(2 rounds\)/, 'two model requests: the tool call and the answer');
}

/** What the second answer must show: the tool_search path. @param {string} text */
function assertSearchedFirst(text) {
  assert.match(text, /Searching tools for "Is the air in Bergen/, `the search step is shown:\n${text}`);
  assert.doesNotMatch(text, /\(matched your request[^)]*\)/, 'nothing matched the request before round 1');
  assert.match(text, /air_quality_index answered: .*Air quality in Bergen/, 'the found tool was called with the place from the request');
  assert.match(text, /found it with tool_search/, 'the demo model says how it found the tool');
  assert.match(text, /Model requests: 3 \(3 rounds\)/, 'three model requests: search, call, answer');
}

/**
 * Runs the demo pass; never throws. Returns { tests: [{ fullTitle, state, error? }] }.
 * @returns {Promise<{ tests: import('../offlineHost.mjs').TestResult[] }>}
 */
export async function runDemoPass({ log = console.log } = {}) {
  const base = path.join(REPO_ROOT, '.toolshed-host', 'runs', `${new Date().toISOString().replace(/[:.]/g, '-')}-demo-${process.pid}`);
  rmSync(base, { recursive: true, force: true });
  const workspace = path.join(base, 'workspace');
  mkdirSync(base, { recursive: true });
  cpSync(EXAMPLE_WORKSPACE, workspace, { recursive: true });
  const title =
    'npm start demo › @toolshed with the offline demo model calls the tool activated for the request in round 1, and searches for one no request word names';
  const started = Date.now();
  /** @type {Awaited<ReturnType<typeof startHost>> | undefined} */
  let handle;
  try {
    handle = await startHost({ workspace, base, browser: true, log });
    const page = handle.page;
    if (!page) throw new Error('the demo host opened no browser page');
    log(`[demo] ${handle.demo?.tools} demo tools installed; workbench at ${handle.url}`);
    await openChatWithTheDemoModel(page);
    const direct = await ask(page, DEMO_REQUEST);
    assertCalledDirectly(await readWithStepsOpen(direct, STEP));
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await screenshotWithSteps(page, direct, 'demo-start.png');
    const searched = await ask(page, DEMO_SEARCH_REQUEST);
    assertSearchedFirst(await readWithStepsOpen(searched, STEP));
    // Not in the README (one image there); kept beside it for whoever checks the second path.
    await screenshotWithSteps(page, searched, 'demo-start-search.png');
    return { tests: [{ title, fullTitle: title, state: 'passed', durationMs: Date.now() - started }] };
  } catch (error) {
    if (handle?.page) await handle.page.screenshot({ path: path.join(SCREENSHOT_DIR, 'failed-demo-start.png') }).catch(() => {});
    const failure = /** @type {Error} */ (error);
    return {
      tests: [
        {
          title,
          fullTitle: title,
          state: 'failed',
          durationMs: Date.now() - started,
          error: failure.message,
          stack: `${failure.stack}\n  run folder: ${base}`,
        },
      ],
    };
  } finally {
    if (handle) await handle.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { tests } = await runDemoPass();
  for (const t of tests) console.log(`${t.state === 'passed' ? '✓' : '✗'} ${t.fullTitle}${t.error ? `\n${t.stack}` : ''}`);
  process.exit(tests.every((t) => t.state === 'passed') ? 0 : 1);
}
