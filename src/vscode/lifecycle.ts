import type * as vscode from 'vscode';

/** Base for objects that own registrations: everything `_register`ed is disposed with it. */
export abstract class Disposable implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  protected _register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposed) {
      disposable.dispose();
    } else {
      this.disposables.push(disposable);
    }
    return disposable;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Dispose in reverse order of registration, like a stack of acquired resources.
    for (const disposable of this.disposables.reverse()) {
      try {
        disposable.dispose();
      } catch {
        // One failing dispose must not keep the others alive.
      }
    }
    this.disposables.length = 0;
  }
}
