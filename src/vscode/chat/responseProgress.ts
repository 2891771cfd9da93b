import * as vscode from 'vscode';
import type { PlannerProgress } from '../../core/planner/plannerPorts';

/** PlannerProgress over the chat response stream: status lines, streamed text, references. */
export function createResponseProgress(stream: vscode.ChatResponseStream): PlannerProgress & { transcript: string[] } {
  const transcript: string[] = [];
  return {
    transcript,
    progress(message) {
      transcript.push(message);
      stream.progress(message);
    },
    markdown(text) {
      stream.markdown(text);
    },
    reference(skill) {
      if (skill.path) stream.reference(vscode.Uri.file(skill.path));
    },
  };
}
