import type * as vscode from 'vscode';
import { NodeByteStore } from '../core/platform/nodeByteStore';
import type { ByteStore } from '../core/platform/ports';

/**
 * Where Toolshed keeps its databases: the workspace's storage (`context.storageUri`), or the
 * global storage when no folder is open. Both are local folders owned by this extension.
 */
export function createByteStore(context: vscode.ExtensionContext): { store: ByteStore; folder: string } {
  const folder = (context.storageUri ?? context.globalStorageUri).fsPath;
  return { store: new NodeByteStore(folder), folder };
}
