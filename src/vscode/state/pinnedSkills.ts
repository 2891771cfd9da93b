import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';

const KEY = 'toolshed.pinnedSkills';

/**
 * Skills the user pinned from the Skill Directory view. Kept in workspace state so pins
 * survive reloads; pinned skills lead the `<skill_directory>` and are injected in full.
 */
export class PinnedSkills extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {
    super();
  }

  names(): string[] {
    return this.memento.get<string[]>(KEY, []);
  }

  has(name: string): boolean {
    return this.names().includes(name);
  }

  async pin(name: string): Promise<void> {
    if (this.has(name)) return;
    await this.memento.update(KEY, [...this.names(), name]);
    this.changed.fire();
  }

  async unpin(name: string): Promise<void> {
    await this.memento.update(
      KEY,
      this.names().filter((n) => n !== name),
    );
    this.changed.fire();
  }
}
