import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOLSHED_ID, eventually, scriptedModel, selectScriptedChatModel, toolshed } from './helpers';

suite('smoke: extension in a real host', () => {
  test('Toolshed activates', async () => {
    const api = await toolshed();
    const extension = vscode.extensions.getExtension(TOOLSHED_ID);
    assert.ok(extension?.isActive, 'isActive after activate()');
    assert.equal(api.version, extension.packageJSON.version);
  });

  test('the contributed command toolshed.showLog is registered and runs', async () => {
    await toolshed();
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('toolshed.showLog'), 'toolshed.showLog is registered');
    await vscode.commands.executeCommand('toolshed.showLog');
  });

  test('the "Toolshed" output channel exists and has the activation line', async () => {
    await toolshed();
    await vscode.commands.executeCommand('toolshed.showLog');
    // Output channels reach extensions as documents with the `output` scheme once shown.
    const document = await eventually(
      () => vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'output' && /Toolshed/.test(doc.uri.toString())),
      'an output document for the Toolshed channel',
    );
    await eventually(() => /Toolshed .* activating/.test(document.getText()), 'the activation line in the Toolshed log');
  });

  test('context.storageUri is writable', async () => {
    const { storageUri } = await toolshed();
    assert.ok(storageUri, 'a workspace is open, so storageUri is set');
    await vscode.workspace.fs.createDirectory(storageUri);
    const file = vscode.Uri.joinPath(storageUri, 'host-smoke.txt');
    const text = `written at ${new Date().toISOString()}`;
    await vscode.workspace.fs.writeFile(file, Buffer.from(text, 'utf8'));
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8'), text);
    await vscode.workspace.fs.delete(file);
  });
});

suite('smoke: scripted language model', () => {
  const probeTool: vscode.LanguageModelChatTool = {
    name: 'toolshed_probe',
    description: 'A tool the scripted model is told to call',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  };

  test('is selectable and streams a scripted tool call; the request is recorded', async () => {
    const control = await scriptedModel();
    control.setScript([[{ text: 'Let me look.' }, { toolCall: { callId: 'c1', name: 'toolshed_probe', input: { query: 'lint' } } }]]);
    const models = await vscode.lm.selectChatModels({ vendor: 'toolshed-scripted' });
    assert.equal(models.length, 1);
    const [model] = models;
    assert.equal(model.id, 'scripted');

    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('find a lint tool')], { tools: [probeTool] });
    const texts: string[] = [];
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
      else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    }
    assert.deepEqual(texts, ['Let me look.']);
    assert.equal(calls.length, 1);
    assert.equal(calls[0].callId, 'c1');
    assert.equal(calls[0].name, 'toolshed_probe');
    assert.deepEqual(calls[0].input, { query: 'lint' });

    assert.equal(control.requests.length, 1);
    const [request] = control.requests;
    assert.deepEqual(request.toolNames, ['toolshed_probe']);
    assert.equal(request.messages[0].role, 'user');
    assert.deepEqual(request.messages[0].content, [{ type: 'text', value: 'find a lint tool' }]);
    assert.equal(control.remaining, 0);
  });

  test('plays two rounds: a tool call, then text computed from the tool result', async () => {
    const control = await scriptedModel();
    control.setScript([
      [{ toolCall: { callId: 'call-1', name: 'toolshed_probe', input: { query: 'x' } } }],
      (request) => {
        const last = request.messages.at(-1)?.content[0];
        assert.ok(last?.type === 'toolResult', 'round 2 receives the tool result');
        const echoed = last.content.map((part) => (part.type === 'text' ? part.value : '')).join('');
        return `The tool said: ${echoed}`;
      },
    ]);
    const model = await selectScriptedChatModel();
    const messages = [vscode.LanguageModelChatMessage.User('go')];

    const first = await model.sendRequest(messages, { tools: [probeTool] });
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of first.stream) if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    assert.equal(calls.length, 1);

    messages.push(vscode.LanguageModelChatMessage.Assistant(calls));
    messages.push(
      vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(calls[0].callId, [new vscode.LanguageModelTextPart('42 tools')])]),
    );
    const second = await model.sendRequest(messages, { tools: [probeTool] });
    let text = '';
    for await (const chunk of second.text) text += chunk;
    assert.equal(text, 'The tool said: 42 tools');

    assert.equal(control.requests.length, 2);
    assert.deepEqual(control.requests[1].messages[1].content, [{ type: 'toolCall', callId: 'call-1', name: 'toolshed_probe', input: { query: 'x' } }]);
  });

  test('counts tokens as ceil(length / 4)', async () => {
    const model = await selectScriptedChatModel();
    assert.equal(await model.countTokens('12345'), 2);
  });
});
