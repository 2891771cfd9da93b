import { strict as assert } from 'node:assert';
import { DEMO_TOOLS } from '../../../examples/demo-model/src/demoToolCatalog';
import { demoToolAnswer } from '../../../examples/demo-model/src/demoToolResults';
import { argumentsFor, decideDemoReply, injectedSkill, type DemoMessage } from '../../../examples/demo-model/src/demoPolicy';

const user = (text: string): DemoMessage => ({ role: 'user', parts: [{ kind: 'text', text }] });
const call = (callId: string, name: string, input: unknown = {}): DemoMessage => ({ role: 'assistant', parts: [{ kind: 'toolCall', callId, name, input }] });
const result = (callId: string, text: string): DemoMessage => ({ role: 'user', parts: [{ kind: 'toolResult', callId, text }] });

const FLAKY = 'Which tests are flaky on CI this week?';
const SKILLS = user('<skills>\nSkills relevant…\n### triage-flaky-tests — Triage flaky tests\nWhen: …\nSteps:\n1. List the flaky tests first.\n2. Reproduce.\n</skills>');
const flakyTool = DEMO_TOOLS.find((t) => t.name === 'ci_list_flaky_tests')!;

describe('offline demo model (examples/demo-model)', () => {
  it('ships 100+ example tools with unique, valid names and consistent schemas', () => {
    assert.ok(DEMO_TOOLS.length >= 100, `${DEMO_TOOLS.length} tools`);
    assert.equal(new Set(DEMO_TOOLS.map((t) => t.name)).size, DEMO_TOOLS.length);
    for (const tool of DEMO_TOOLS) {
      assert.match(tool.name, /^[a-z0-9_]{3,64}$/);
      assert.ok(tool.description.length > 20, tool.name);
      for (const required of tool.inputSchema.required) assert.ok(required in tool.inputSchema.properties, `${tool.name}.${required}`);
    }
  });

  it('searches first: a fresh request with tool_search offered becomes a tool_search call with the request', () => {
    const reply = decideDemoReply([SKILLS, user(FLAKY)], [{ name: 'tool_search' }]);
    assert.deepEqual(reply, { kind: 'toolCall', name: 'tool_search', input: { query: FLAKY } });
  });

  it('then calls the tool tool_search found (offered after activation), with its required arguments', () => {
    const found = JSON.stringify({ tools: [{ name: 'ci_list_flaky_tests' }, { name: 'ci_get_build_logs' }] });
    const reply = decideDemoReply([SKILLS, user(FLAKY), call('c1', 'tool_search'), result('c1', found)], [
      { name: 'tool_search' },
      { name: flakyTool.name, inputSchema: flakyTool.inputSchema },
    ]);
    assert.equal(reply.kind, 'toolCall');
    assert.equal(reply.kind === 'toolCall' && reply.name, 'ci_list_flaky_tests');
  });

  it('calls the first found tool even when it is not offered yet (activation on first use)', () => {
    const found = JSON.stringify({ tools: [{ name: 'weather_forecast' }] });
    const reply = decideDemoReply([user('What is the weather in Bergen?'), call('c1', 'tool_search'), result('c1', found)], [{ name: 'tool_search' }]);
    assert.deepEqual(reply.kind === 'toolCall' && reply.name, 'weather_forecast');
  });

  it('answers from the tool result, says how the tool was found, and names the injected skill', () => {
    const answer = demoToolAnswer('ci_list_flaky_tests', {});
    const reply = decideDemoReply([SKILLS, user(FLAKY), call('c1', 'tool_search'), result('c1', '{"tools":[]}'), call('c2', 'ci_list_flaky_tests'), result('c2', answer)], []);
    assert.equal(reply.kind, 'text');
    const text = reply.kind === 'text' ? reply.text : '';
    assert.ok(text.includes(answer), 'carries the result');
    assert.match(text, /found it with `tool_search`/);
    assert.match(text, /triage-flaky-tests/);
    assert.match(text, /offline, rule-based/);
  });

  it('says so plainly when tool_search found nothing or returned garbage', () => {
    for (const garbage of ['{"tools":[]}', 'not json', '']) {
      const reply = decideDemoReply([user(FLAKY), call('c1', 'tool_search'), result('c1', garbage)], [{ name: 'tool_search' }]);
      assert.equal(reply.kind, 'text');
      assert.match(reply.kind === 'text' ? reply.text : '', /found no tool/);
    }
  });

  it('explains itself when no tool_search is offered (e.g. used outside @toolshed)', () => {
    const reply = decideDemoReply([user(FLAKY)], []);
    assert.match(reply.kind === 'text' ? reply.text : '', /@toolshed/);
  });

  it('fills arguments from the request: places, numbers, enums, titles', () => {
    const weather = DEMO_TOOLS.find((t) => t.name === 'weather_forecast')!;
    assert.deepEqual(argumentsFor(weather.inputSchema, 'What is the weather in Bergen?'), { city: 'Bergen' });
    const convert = DEMO_TOOLS.find((t) => t.name === 'currency_convert')!;
    assert.equal(argumentsFor(convert.inputSchema, 'Convert 250 euros to Canadian dollars').amount, 250);
    const issue = DEMO_TOOLS.find((t) => t.name === 'github_create_issue')!;
    const args = argumentsFor(issue.inputSchema, 'Create a GitHub issue for the flaky login test');
    assert.equal(args.title, 'The flaky login test');
    assert.equal(typeof args.repository, 'string');
  });

  it('reads the first injected skill and its first step', () => {
    assert.deepEqual(injectedSkill([SKILLS]), { name: 'triage-flaky-tests', firstStep: 'List the flaky tests first.' });
    assert.equal(injectedSkill([user('no skills here')]), undefined);
  });
});
