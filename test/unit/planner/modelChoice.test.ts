import * as assert from 'node:assert/strict';
import { noModelAnswer, smallerSibling, substituteModelNote } from '../../../src/core/planner/modelChoice';

describe('model choice messages', () => {
  it('names the unavailable model, the one used instead, and where to pick another', () => {
    const note = substituteModelNote({ name: 'GPT-9', vendor: 'copilot' }, { name: 'Local Llama', vendor: 'ollama' });
    assert.match(
      note,
      /GPT-9 \(copilot\) is not available, so Toolshed answered with Local Llama \(ollama\)\. Pick another model in the chat's model picker\./,
    );
    assert.match(substituteModelNote(undefined, { name: 'M', vendor: 'v' }), /^_No model was selected/);
  });

  it('without any model, says how to get one and what works meanwhile', () => {
    const answer = noModelAnswer({ name: 'GPT-9', vendor: 'copilot' });
    assert.match(answer, /GPT-9 \(copilot\) is not available, and no other language model/);
    assert.match(answer, /Sign in to GitHub Copilot or install an extension that provides a chat model/);
    assert.match(answer, /`\/tools`, `\/skills`, `\/skill <name>` and `\/search <words>` work without a model/);
  });
});

describe('the model that chooses active skills', () => {
  const model = (id: string, family: string, vendor = 'copilot') => ({ id, family, vendor, name: id.toUpperCase() });
  it("a small model of the same vendor when the request's model is not small itself", () => {
    const available = [model('gpt-5', 'gpt-5'), model('claude-haiku-4', 'claude-haiku', 'other'), model('gpt-4o-mini', 'gpt-4o-mini')];
    assert.equal(smallerSibling(model('gpt-5', 'gpt-5'), available)?.id, 'gpt-4o-mini');
    assert.equal(smallerSibling(model('gpt-4o-mini', 'gpt-4o-mini'), available), undefined, 'already small');
    assert.equal(smallerSibling(model('opus', 'claude-opus', 'anthropic'), available), undefined, 'no small model of that vendor');
    assert.equal(smallerSibling(model('gemini-pro', 'gemini-pro', 'google'), [model('gemini-flash-lite', 'gemini-flash', 'google')])?.id, 'gemini-flash-lite');
    assert.equal(smallerSibling(model('gpt-5', 'gpt-5'), [model('gpt-5-minimal', 'gpt-5-minimal')]), undefined, '"minimal" is not "mini"');
  });
});
