import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { toolshed } from './helpers';

export const textOf = (result: vscode.LanguageModelToolResult) =>
  result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');

/** Every skill name a model may see here, paged through skill_list (agent mode's view). */
export async function agentModeSkillNames(): Promise<string[]> {
  const names: string[] = [];
  for (let page = 1; ; page++) {
    const listed = JSON.parse(textOf(await vscode.lm.invokeTool('skill_list', { input: { page, page_size: 50 }, toolInvocationToken: undefined }))) as {
      skills: Array<{ name: string }>;
      has_more: boolean;
    };
    names.push(...listed.skills.map((s) => s.name));
    if (!listed.has_more) return names;
  }
}

/**
 * Every skill name @toolshed may use here (its own prompt: VS Code's native agent skills
 * included), paged through the participant's skill context.
 */
export async function toolshedSkillNames(): Promise<string[]> {
  const api = await toolshed();
  const names: string[] = [];
  for (let page = 1; ; page++) {
    const listed = await api.services.skills.list({ page, page_size: 50 }, api.services.skillContext());
    names.push(...listed.skills.map((s) => s.name));
    if (!listed.has_more) return names;
  }
}

/** The `skill` tool a recorded request offered: its description and enum. */
export function skillToolOf(request: { tools: Array<{ name: string; description: string; inputSchema?: unknown }> }): { description: string; enum: string[] } {
  const tool = request.tools.find((t) => t.name === 'skill');
  assert.ok(tool, `no skill tool offered: ${request.tools.map((t) => t.name).join(', ')}`);
  const schema = tool.inputSchema as { properties?: { skill_name?: { enum?: string[] } } };
  const values = schema.properties?.skill_name?.enum;
  assert.ok(Array.isArray(values), 'skill_name is an enum');
  return { description: tool.description, enum: values };
}
