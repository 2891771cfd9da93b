import * as assert from 'node:assert/strict';
import { noModelAnswer, substituteModelNote } from '../../../src/core/planner/modelChoice';

describe('model choice messages', () => {
  it('names the unavailable model, the one used instead, and where to pick another', () => {
    const note = substituteModelNote({ name: 'GPT-9', vendor: 'copilot' }, { name: 'Local Llama', vendor: 'ollama' });
    assert.match(note, /GPT-9 \(copilot\) is not available, so Toolshed answered with Local Llama \(ollama\)\. Pick another model in the chat's model picker\./);
    assert.match(substituteModelNote(undefined, { name: 'M', vendor: 'v' }), /^_No model was selected/);
  });

  it('without any model, says how to get one and what works meanwhile', () => {
    const answer = noModelAnswer({ name: 'GPT-9', vendor: 'copilot' });
    assert.match(answer, /GPT-9 \(copilot\) is not available, and no other language model/);
    assert.match(answer, /Sign in to GitHub Copilot or install an extension that provides a chat model/);
    assert.match(answer, /`\/tools`, `\/skills`, `\/skill <name>` and `\/search <words>` work without a model/);
  });
});
