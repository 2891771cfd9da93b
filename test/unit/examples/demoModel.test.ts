import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DEMO_TOOLS } from '../../../examples/demo-model/src/demoToolCatalog';
import { demoToolAnswer } from '../../../examples/demo-model/src/demoToolResults';
import { argumentsFor, decideDemoReply, injectedSkill, type DemoMessage, type DemoToolInfo } from '../../../examples/demo-model/src/demoPolicy';
import { matchingTool } from '../../../examples/demo-model/src/demoToolMatch';

const user = (text: string): DemoMessage => ({ role: 'user', parts: [{ kind: 'text', text }] });
const call = (callId: string, name: string, input: unknown = {}): DemoMessage => ({ role: 'assistant', parts: [{ kind: 'toolCall', callId, name, input }] });
const result = (callId: string, text: string): DemoMessage => ({ role: 'user', parts: [{ kind: 'toolResult', callId, text }] });

const FLAKY = 'Which tests are flaky on CI this week?';
const SKILLS = user(
  '<skills>\nSkills relevant…\n### triage-flaky-tests — Triage flaky tests\nWhen: …\nSteps:\n1. List the flaky tests first.\n2. Reproduce.\n</skills>',
);
const flakyTool = DEMO_TOOLS.find((t) => t.name === 'ci_list_flaky_tests')!;
const listed = (...names: string[]): DemoToolInfo[] =>
  names.map((name) => {
    const tool = DEMO_TOOLS.find((t) => t.name === name);
    return tool ? { name, description: tool.description, inputSchema: tool.inputSchema } : { name, description: `Toolshed ${name}.` };
  });

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

  it('calls a listed tool that fits the request in round 1, e.g. one Toolshed activated because it matched', () => {
    // What Toolshed offers for FLAKY in the demo: its own tools and the three tools that pass the gate.
    const reply = decideDemoReply([SKILLS, user(FLAKY)], listed('tool_search', 'skill_search', 'regex_test', 'ab_test_results', 'ci_list_flaky_tests'));
    assert.deepEqual(reply, { kind: 'toolCall', name: 'ci_list_flaky_tests', input: {} });
    const weather = decideDemoReply([user('What is the weather in Oslo?')], listed('tool_search', 'weather_forecast', 'weather_alerts'));
    assert.deepEqual(weather, { kind: 'toolCall', name: 'weather_forecast', input: { city: 'Oslo' } });
  });

  it("searches when no listed tool fits: only tool_search, a tool sharing one word, or Toolshed's own tools", () => {
    for (const tools of [listed('tool_search'), listed('tool_search', 'regex_test', 'ab_test_results'), listed('tool_search', 'skill_search', 'skill_list')]) {
      const reply = decideDemoReply([SKILLS, user(FLAKY)], tools);
      assert.deepEqual(reply, { kind: 'toolCall', name: 'tool_search', input: { query: FLAKY } }, tools.map((t) => t.name).join());
    }
    const air = decideDemoReply([user('Is the air in Bergen safe to breathe today?')], listed('tool_search', 'skill_search'));
    assert.equal(air.kind === 'toolCall' && air.name, 'tool_search');
  });

  it('matches by words, not by the place or person a request names', () => {
    const tools = listed('weather_forecast', 'github_create_issue', 'jira_create_ticket');
    assert.equal(matchingTool('What is the weather in New York?', tools)?.name, 'weather_forecast');
    assert.equal(matchingTool('Create an issue for the login bug', tools)?.name, 'github_create_issue');
    assert.equal(matchingTool('Oslo Bergen Trondheim', tools), undefined);
    assert.equal(matchingTool('', tools), undefined);
  });

  it('then calls the tool tool_search found (offered after activation), with its required arguments', () => {
    const found = JSON.stringify({ tools: [{ name: 'ci_list_flaky_tests' }, { name: 'ci_get_build_logs' }] });
    const reply = decideDemoReply(
      [SKILLS, user(FLAKY), call('c1', 'tool_search'), result('c1', found)],
      [{ name: 'tool_search' }, { name: flakyTool.name, inputSchema: flakyTool.inputSchema }],
    );
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
    const reply = decideDemoReply(
      [SKILLS, user(FLAKY), call('c1', 'tool_search'), result('c1', '{"tools":[]}'), call('c2', 'ci_list_flaky_tests'), result('c2', answer)],
      [],
    );
    assert.equal(reply.kind, 'text');
    const text = reply.kind === 'text' ? reply.text : '';
    assert.ok(text.includes(answer), 'carries the result');
    assert.match(text, /found it with `tool_search`/);
    assert.match(text, /triage-flaky-tests/);
    assert.match(text, /offline, rule-based/);
  });

  it('after a direct call, says the tool was listed from round 1 and no tool_search round was needed', () => {
    const answer = demoToolAnswer('ci_list_flaky_tests', {});
    const tools = listed('tool_search', 'ci_list_flaky_tests');
    const reply = decideDemoReply([SKILLS, user(FLAKY), call('c1', 'ci_list_flaky_tests'), result('c1', answer)], tools);
    const text = reply.kind === 'text' ? reply.text : '';
    assert.ok(text.includes(answer), 'carries the result');
    assert.match(text, /activates the deferred tools that match your request before that round/);
    assert.match(text, /called it directly, without a `tool_search` round/);
    assert.doesNotMatch(text, /found it with/);
    assert.match(text, /triage-flaky-tests/);
  });

  it("tells each turn by its own calls: an earlier turn's tool_search does not count", () => {
    const answer = demoToolAnswer('ci_list_flaky_tests', {});
    const earlier = [
      user('Is the air in Bergen safe to breathe today?'),
      call('a1', 'tool_search'),
      result('a1', '{"tools":[{"name":"air_quality_index"}]}'),
      call('a2', 'air_quality_index'),
      result('a2', 'good'),
    ];
    const reply = decideDemoReply(
      [...earlier, user(FLAKY), call('c1', 'ci_list_flaky_tests'), result('c1', answer)],
      listed('tool_search', 'ci_list_flaky_tests'),
    );
    assert.match(reply.kind === 'text' ? reply.text : '', /called it directly/);
  });

  it('never throws on arbitrary requests and tool lists, and only calls a listed tool or tool_search', () => {
    const names = DEMO_TOOLS.map((t) => t.name);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.subarray(names, { maxLength: 6 }), (request, chosen) => {
        const tools = listed('tool_search', ...chosen);
        const reply = decideDemoReply([user(request)], tools);
        if (reply.kind === 'toolCall')
          assert.ok(
            tools.some((t) => t.name === reply.name),
            reply.name,
          );
      }),
      { numRuns: 300 },
    );
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
