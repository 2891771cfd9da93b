import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import {
  OpeningTreeDataProvider,
  openingTool,
  registerOpeningCommands,
  ServicesOpening,
  ToolshedStartError,
  type CommandRegistry,
} from '../../../src/vscode/servicesOpening';

/** VS Code's command registry as the extension host keeps it: one handler per id, a second registration throws. */
function commandRegistry() {
  const handlers = new Map<string, (...args: unknown[]) => unknown>();
  const registry: CommandRegistry = {
    registerCommand(id: string, handler: (...args: unknown[]) => unknown) {
      if (handlers.has(id)) throw new Error(`command '${id}' already exists`);
      handlers.set(id, handler);
      return { dispose: () => void handlers.delete(id) };
    },
    async executeCommand<T>(id: string, ...args: unknown[]): Promise<T> {
      const handler = handlers.get(id);
      if (!handler) throw new Error(`command '${id}' not found`);
      return (await handler(...args)) as T;
    },
  } as CommandRegistry;
  return { registry, handlers };
}

/** Whether a promise has settled by the time every callback already queued has run. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) } as unknown as vscode.CancellationToken;
const textOf = (result: vscode.LanguageModelToolResult) => (result.content[0] as { value: string }).value;
const failureResult = (error: ToolshedStartError) => ({ content: [{ value: error.message }] }) as unknown as vscode.LanguageModelToolResult;

describe('vscode-pure: surfaces registered while the services open', () => {
  it('a command run while the services open waits, then runs its own registration with its arguments', async () => {
    const opening = new ServicesOpening<{ name: string }>();
    const { registry } = commandRegistry();
    const placeholders = registerOpeningCommands(['toolshed.searchSkills', 'toolshed.openSkill'], opening, registry);
    const ran: unknown[][] = [];

    const result = Promise.resolve(registry.executeCommand<string>('toolshed.searchSkills', 'review', 3));
    assert.equal(await settledYet(result), false, 'the command waits while the services open');

    // What the composition root does once the services are open: placeholders out, real commands in, then ready.
    placeholders.replace();
    registry.registerCommand('toolshed.searchSkills', (...args: unknown[]) => {
      ran.push(args);
      return `searched ${args.join(' ')}`;
    });
    registry.registerCommand('toolshed.openSkill', () => 'opened');
    opening.opened({ name: 'services' });

    assert.equal(await result, 'searched review 3');
    assert.deepEqual(ran, [['review', 3]]);
    assert.equal(await registry.executeCommand('toolshed.openSkill'), 'opened', 'a later run reaches the real command directly');
  });

  it('after a failed open, a command fails with the reason and the way to the log, and nothing hangs', async () => {
    const opening = new ServicesOpening<object>();
    const { registry } = commandRegistry();
    registerOpeningCommands(['toolshed.reloadSkillPacks'], opening, registry);
    const waiting = Promise.resolve(registry.executeCommand('toolshed.reloadSkillPacks'));
    opening.failed(new Error('skills.db: disk I/O error'));

    await assert.rejects(waiting, (error: Error) => {
      assert.ok(error instanceof ToolshedStartError);
      assert.match(error.message, /^Toolshed could not start: skills\.db: disk I\/O error\./);
      assert.match(error.message, /Toolshed: Show Log/);
      return true;
    });
    // A command run after the failure fails the same way at once.
    await assert.rejects(Promise.resolve(registry.executeCommand('toolshed.reloadSkillPacks')), /Toolshed could not start: skills\.db: disk I\/O error/);
    assert.equal(opening.failure?.reason, 'skills.db: disk I/O error');
  });

  it('a language-model tool called during the open answers from the services once open; its implementation is made once', async () => {
    const opening = new ServicesOpening<{ answer: string }>();
    let made = 0;
    const tool = openingTool<{ answer: string }, { query: string }>(
      opening,
      (services) => {
        made++;
        return {
          prepareInvocation: (options) => ({ invocationMessage: `Searching skills for "${options.input.query}"` }),
          invoke: (options) => ({ content: [{ value: `${services.answer} for ${options.input.query}` }] }) as unknown as vscode.LanguageModelToolResult,
        };
      },
      failureResult,
    );
    const options = { input: { query: 'review a pull request' }, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<{
      query: string;
    }>;

    const prepared = Promise.resolve(tool.prepareInvocation!(options, token));
    const answered = Promise.resolve(tool.invoke(options, token));
    assert.equal(await settledYet(answered), false, 'the call waits for the services');
    assert.equal(made, 0, 'no implementation before the services are open');

    opening.opened({ answer: 'pr-review' });
    assert.deepEqual(await prepared, { invocationMessage: 'Searching skills for "review a pull request"' });
    assert.equal(textOf((await answered)!), 'pr-review for review a pull request');
    assert.equal(textOf((await tool.invoke(options, token))!), 'pr-review for review a pull request');
    assert.equal(made, 1);
  });

  it('a tool whose invocation message comes from its input is shown at once while the services open; only its answer waits', async () => {
    const opening = new ServicesOpening<{ answer: string }>();
    const tool = openingTool<{ answer: string }, { query: string }>(
      opening,
      (services) => ({
        prepareInvocation: (options) => ({ invocationMessage: `Searching skills for "${options.input.query}"` }),
        invoke: () => ({ content: [{ value: services.answer }] }) as unknown as vscode.LanguageModelToolResult,
      }),
      failureResult,
      (input) => `Searching skills for "${input.query}"`,
    );
    const options = { input: { query: 'release notes' }, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<{ query: string }>;
    const prepared = Promise.resolve(tool.prepareInvocation!(options, token));
    assert.equal(await settledYet(prepared), true, 'the workbench gets the message without waiting for the services');
    assert.deepEqual(await prepared, { invocationMessage: 'Searching skills for "release notes"' });
    const answered = Promise.resolve(tool.invoke(options, token));
    assert.equal(await settledYet(answered), false);
    opening.opened({ answer: 'release-notes' });
    assert.equal(textOf((await answered)!), 'release-notes');
  });

  it('a language-model tool called when the open failed answers with the start error instead of hanging', async () => {
    const opening = new ServicesOpening<object>();
    const tool = openingTool<object, object>(opening, () => assert.fail('no implementation is made from services that did not open'), failureResult);
    const options = { input: {}, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<object>;
    const answered = Promise.resolve(tool.invoke(options, token));
    const prepared = Promise.resolve(tool.prepareInvocation!(options, token));
    opening.failed(new Error('sql-wasm.wasm is missing'));
    assert.match(textOf((await answered)!), /^Toolshed could not start: sql-wasm\.wasm is missing\./);
    assert.equal(await prepared, undefined, 'no invocation message: the answer says what happened');
  });

  it('a view shows one "opening" row, not an empty tree, until its provider is attached; then the provider\'s tree', async () => {
    const opening = new ServicesOpening<object>();
    const rows: Array<ToolshedStartError | undefined> = [];
    const view = new OpeningTreeDataProvider<string>(opening, (failure) => {
      rows.push(failure);
      return { label: failure ? 'Toolshed could not start' : 'Opening the skill store…' };
    });
    const changes: unknown[] = [];
    view.onDidChangeTreeData((change) => changes.push(change));

    const [row, ...more] = ((await view.getChildren()) ?? []) as unknown[];
    assert.equal(more.length, 0);
    assert.deepEqual(await view.getTreeItem(row as string), { label: 'Opening the skill store…' });
    assert.deepEqual(await view.getChildren(row as string), []);

    // The view's own provider: two skills under one pack.
    const listeners: Array<(change: string | undefined) => void> = [];
    const provider: vscode.TreeDataProvider<string> = {
      getChildren: (element) => (element === undefined ? ['pack'] : element === 'pack' ? ['pr-review', 'changelog'] : []),
      getTreeItem: (element) => ({ label: element }),
      getParent: (element) => (element === 'pack' ? undefined : 'pack'),
      onDidChangeTreeData: (listener) => {
        listeners.push(listener as (change: string | undefined) => void);
        return { dispose() {} };
      },
    };
    view.attach(provider);
    opening.opened({});
    assert.deepEqual(changes, [undefined], 'the whole view is redrawn once attached');
    assert.deepEqual(await view.getChildren(), ['pack']);
    assert.deepEqual(await view.getChildren('pack'), ['pr-review', 'changelog']);
    assert.deepEqual(await view.getTreeItem('changelog'), { label: 'changelog' });
    assert.equal(await view.getParent!('changelog'), 'pack', "reveal still finds a skill's parent");
    listeners[0]!('pack');
    assert.deepEqual(changes, [undefined, 'pack'], "the provider's own changes reach the view");
    assert.deepEqual(rows, [undefined]);
  });

  it('a view whose services could not open shows the error row', async () => {
    const opening = new ServicesOpening<object>();
    const view = new OpeningTreeDataProvider<string>(opening, (failure) => ({ label: failure ? failure.message : 'Opening the skill store…' }));
    const redrawn = new Promise<unknown>((resolve) => view.onDidChangeTreeData(resolve));
    opening.failed(new Error('the global storage folder is read-only'));
    await redrawn;
    const [row] = ((await view.getChildren()) ?? []) as string[];
    const item = await view.getTreeItem(row!);
    assert.match(String(item.label), /^Toolshed could not start: the global storage folder is read-only\./);
  });

  it('the services settle once: a failure after the open, or a second open, changes nothing', async () => {
    const opening = new ServicesOpening<string>();
    opening.opened('first');
    opening.failed(new Error('late'));
    opening.opened('second');
    assert.equal(await opening.whenReady(), 'first');
    assert.equal(opening.failure, undefined);
  });
});
