import * as vscode from 'vscode';
import type { PlannerProgress } from '../../core/planner/plannerPorts';
import { createStepWriter } from '../../core/planner/stepLines';

/**
 * PlannerProgress over the chat response stream: steps as visible quoted lines (not transient
 * progress, which VS Code counts but hides once done), streamed text, references.
 */
export function createResponseProgress(stream: vscode.ChatResponseStream): PlannerProgress & { readonly transcript: readonly string[] } {
  const writer = createStepWriter();
  return {
    transcript: writer.steps,
    progress(message) {
      stream.markdown(writer.step(message));
    },
    markdown(text) {
      const chunk = writer.text(text);
      if (chunk) stream.markdown(chunk);
    },
    reference(skill) {
      if (skill.path) stream.reference(vscode.Uri.file(skill.path));
    },
  };
}
