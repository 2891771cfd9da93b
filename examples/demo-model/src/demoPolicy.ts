/**
 * The offline demo model's whole "mind": a few rules over the conversation, no network, no
 * weights. It exists so that a newcomer without any model account can watch Toolshed do its
 * job: a listed tool that fits the request (Toolshed activates matching deferred tools before
 * round 1) is called at once; otherwise the model searches with `tool_search`, sees the tool
 * activated, calls it — and answers from the result.
 *
 * Plain TypeScript (no vscode import) so the rules are unit-tested in Node.
 */

import { matchingTool } from './demoToolMatch';

export type DemoPart =
  { kind: 'text'; text: string } | { kind: 'toolCall'; callId: string; name: string; input: unknown } | { kind: 'toolResult'; callId: string; text: string };

export interface DemoMessage {
  role: 'user' | 'assistant' | 'other';
  parts: DemoPart[];
}

export interface DemoToolInfo {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

export type DemoReply = { kind: 'text'; text: string } | { kind: 'toolCall'; name: string; input: Record<string, unknown> };

export const DEMO_MODEL_LABEL = 'Toolshed demo model (offline, rule-based)';
const TOOL_SEARCH = 'tool_search';

/** What to answer next, given the conversation so far and the tools offered this round. */
export function decideDemoReply(messages: readonly DemoMessage[], tools: readonly DemoToolInfo[], today = new Date()): DemoReply {
  const request = userRequest(messages);
  const skill = injectedSkill(messages);
  const last = lastToolExchange(messages);

  if (last && last.name !== TOOL_SEARCH) {
    return { kind: 'text', text: finalAnswer(last.name, last.result, skill, currentTurn(messages), tools) };
  }
  if (last && last.name === TOOL_SEARCH) {
    const found = foundToolNames(last.result);
    const offered = new Set(tools.map((t) => t.name));
    // With activateOn "discovery" the found tool is offered now; with "firstUse" it is not yet,
    // and Toolshed activates it when it is called.
    const pick = found.find((name) => offered.has(name)) ?? found[0];
    if (!pick) {
      return { kind: 'text', text: `${prefix()}tool_search found no tool for "${request}". Try other words, or check the Toolshed log.` };
    }
    const schema = tools.find((t) => t.name === pick)?.inputSchema ?? schemaFromSearchResult(last.result, pick);
    return { kind: 'toolCall', name: pick, input: argumentsFor(schema, request, today) };
  }
  if (!request) return { kind: 'text', text: `${prefix()}Ask me something, e.g. "What is the weather in Oslo?"` };
  const listed = matchingTool(request, tools);
  if (listed) return { kind: 'toolCall', name: listed.name, input: argumentsFor(listed.inputSchema, request, today) };
  if (tools.some((t) => t.name === TOOL_SEARCH)) {
    return { kind: 'toolCall', name: TOOL_SEARCH, input: { query: request } };
  }
  return {
    kind: 'text',
    text: `${prefix()}No tool in my list matches your request, and no \`tool_search\` tool was offered to me to find one. Ask through \`@toolshed\`.`,
  };
}

function prefix(): string {
  return `_${DEMO_MODEL_LABEL}._ `;
}

function textOf(message: DemoMessage): string {
  return message.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n');
}

/** Where the person's request is: the last user message that carries text (not only tool results); -1 when none. */
function requestIndex(messages: readonly DemoMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user' || !m.parts.some((p) => p.kind === 'text')) continue;
    if (m.parts.some((p) => p.kind === 'toolResult')) continue;
    return i;
  }
  return -1;
}

/** The person's request (the text of the message `requestIndex` finds). */
export function userRequest(messages: readonly DemoMessage[]): string {
  const i = requestIndex(messages);
  return i < 0 ? '' : textOf(messages[i]).trim();
}

/** This turn's messages: the ones after the request (earlier turns' tool calls are not this turn's). */
function currentTurn(messages: readonly DemoMessage[]): readonly DemoMessage[] {
  return messages.slice(requestIndex(messages) + 1);
}

/** The first skill Toolshed injected pre-flight (`<skills>` block, `### name — title` headings). */
export function injectedSkill(messages: readonly DemoMessage[]): { name: string; firstStep?: string } | undefined {
  for (const m of messages) {
    const text = textOf(m);
    const block = /<skills>([\s\S]*?)<\/skills>/.exec(text)?.[1];
    if (!block) continue;
    const heading = /^### ([^\s—]+)/m.exec(block);
    if (!heading) continue;
    const after = block.slice(heading.index);
    const firstStep = /^1\. (.+)$/m.exec(after)?.[1];
    return { name: heading[1], ...(firstStep ? { firstStep } : {}) };
  }
  return undefined;
}

function lastToolExchange(messages: readonly DemoMessage[]): { name: string; result: string } | undefined {
  const last = messages[messages.length - 1];
  if (!last) return undefined;
  const result = last.parts.find((p): p is Extract<DemoPart, { kind: 'toolResult' }> => p.kind === 'toolResult');
  if (!result) return undefined;
  for (let i = messages.length - 2; i >= 0; i--) {
    const call = messages[i].parts.find((p) => p.kind === 'toolCall' && p.callId === result.callId);
    if (call && call.kind === 'toolCall') return { name: call.name, result: result.text };
  }
  return undefined;
}

function foundToolNames(resultText: string): string[] {
  try {
    const parsed = JSON.parse(resultText) as { tools?: Array<{ name?: unknown }> };
    return (parsed.tools ?? []).map((t) => t.name).filter((n): n is string => typeof n === 'string');
  } catch {
    return [];
  }
}

function schemaFromSearchResult(resultText: string, name: string): unknown {
  try {
    const parsed = JSON.parse(resultText) as { tools?: Array<{ name?: string; input_schema?: unknown; inputSchema?: unknown }> };
    const tool = parsed.tools?.find((t) => t.name === name);
    return tool?.input_schema ?? tool?.inputSchema;
  } catch {
    return undefined;
  }
}

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  default?: unknown;
}

/** Fills the required (and a few obvious) arguments from the words of the request. */
export function argumentsFor(schema: unknown, request: string, today = new Date()): Record<string, unknown> {
  const s = (schema ?? {}) as { properties?: Record<string, PropertySchema>; required?: string[] };
  const properties = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const value = valueFor(name, property, request, today);
    if (required.has(name) || (value !== undefined && /^(city|location|place|region)$/i.test(name))) {
      if (value !== undefined) args[name] = value;
    }
  }
  return args;
}

function valueFor(name: string, property: PropertySchema, request: string, today: Date): unknown {
  if (Array.isArray(property.enum) && property.enum.length) return property.enum[0];
  if (property.default !== undefined) return property.default;
  const type = property.type ?? 'string';
  if (type === 'number' || type === 'integer') {
    const number = /(\d+(?:\.\d+)?)/.exec(request)?.[1];
    return number ? (type === 'integer' ? Math.round(Number(number)) : Number(number)) : 1;
  }
  if (type === 'boolean') return false;
  if (type !== 'string') return undefined;
  if (/^(city|location|place|region|to|from)$/i.test(name)) {
    const place = /\b(?:in|for|at|to)\s+([A-Z][\p{L}-]+(?:\s+[A-Z][\p{L}-]+)?)/u.exec(request)?.[1];
    return place ?? 'Oslo';
  }
  if (/date|start|day/i.test(name)) return today.toISOString().slice(0, 10);
  if (/repository|repo/i.test(name)) return 'example-org/example-app';
  if (/title|summary|subject/i.test(name)) return sentenceCase(stripLeadIn(request)).slice(0, 80);
  return request;
}

function stripLeadIn(request: string): string {
  return request
    .replace(
      /^(please\s+)?(can you\s+)?(create|open|file|make|add|write|post|send)\s+(a|an|the)?\s*([\w-]+\s+){0,2}?(issue|ticket|bug|message|event|page|note|item)\s+(for|about|on|that says)?\s*/i,
      '',
    )
    .replace(/[?.!]+$/, '')
    .trim();
}

function sentenceCase(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function finalAnswer(
  toolName: string,
  result: string,
  skill: { name: string; firstStep?: string } | undefined,
  turn: readonly DemoMessage[],
  tools: readonly DemoToolInfo[],
): string {
  const lines = [`${prefix()}\`${toolName}\` answered: **${result.trim().slice(0, 600)}**`, '', howIFound(toolName, turn, tools)];
  if (skill) {
    lines.push('', `Toolshed also gave me the team skill \`${skill.name}\`${skill.firstStep ? `; its first step: "${skill.firstStep}"` : ''}.`);
  }
  return lines.join('\n');
}

/** How the tool came to be called, as far as the model can tell from this turn and its tool list. */
function howIFound(toolName: string, turn: readonly DemoMessage[], tools: readonly DemoToolInfo[]): string {
  const searched = turn.some((m) => m.parts.some((p) => p.kind === 'toolCall' && p.name === TOOL_SEARCH));
  if (searched) {
    return `\`${toolName}\` was not in my tool list at first, and no listed tool matched your request: it is one of the deferred tools. I found it with \`tool_search\`, Toolshed activated it, and I called it.`;
  }
  // tool_search offered means Toolshed is deferring tools: a listed one was activated up front.
  if (tools.some((t) => t.name === TOOL_SEARCH)) {
    return `\`${toolName}\` was already in my tool list in my first round: Toolshed activates the deferred tools that match your request before that round. It matched, so I called it directly, without a \`tool_search\` round.`;
  }
  return `I called \`${toolName}\`, which was already in my tool list.`;
}
