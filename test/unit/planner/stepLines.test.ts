import * as assert from 'node:assert/strict';
import { createStepWriter } from '../../../src/core/planner/stepLines';

describe('step lines in the answer', () => {
  it('steps form one quoted block; model text after them starts a new paragraph', () => {
    const writer = createStepWriter();
    const markdown = [
      writer.step('Searching tools for "weather"'),
      writer.step('Activated `weather`'),
      writer.text('It is sunny.'),
      writer.step('Running `x`'),
      writer.text(' Done.'),
    ].join('');
    assert.equal(markdown, '> Searching tools for "weather"  \n> Activated `weather`  \n\nIt is sunny.\n\n> Running `x`  \n\n Done.');
    assert.deepEqual(writer.steps, ['Searching tools for "weather"', 'Activated `weather`', 'Running `x`']);
  });

  it('a step message never breaks out of its line', () => {
    const writer = createStepWriter();
    assert.equal(writer.step('two\nlines'), '> two lines  \n');
    assert.equal(writer.text(''), '');
  });
});
