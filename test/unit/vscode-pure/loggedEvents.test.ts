import * as assert from 'node:assert/strict';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import type { ToolshedEvent } from '../../../src/core/platform/ports';
import { createLoggedEvents } from '../../../src/vscode/outputChannelLogger';

describe("the window's core events: one log line each, then the listeners", () => {
  it('logs every event; a listener for one type hears only that type, an untyped one every event, none after dispose', () => {
    const logger = new MemoryLogger();
    const { events, onEvent } = createLoggedEvents(logger);
    const all: string[] = [];
    const feedback: ToolshedEvent[] = [];
    const everything = onEvent((event) => all.push(event.type));
    const typed = onEvent((event) => feedback.push(event), 'skill_feedback');
    events.emit({ type: 'tool_search_query', payload: { query: 'list issues' } });
    events.emit({ type: 'skill_feedback', payload: { names: ['triage'], outcome: 'helpful' } });
    assert.deepEqual(all, ['tool_search_query', 'skill_feedback']);
    assert.deepEqual(
      feedback.map((event) => event.payload),
      [{ names: ['triage'], outcome: 'helpful' }],
    );
    assert.equal(logger.lines.filter((line) => line.level === 'info' && line.message.startsWith('event ')).length, 2);
    everything.dispose();
    typed.dispose();
    events.emit({ type: 'skill_feedback', payload: {} });
    assert.equal(all.length, 2);
    assert.equal(feedback.length, 1);
  });
});
