import type * as vscode from 'vscode';
import { NodeByteStore } from '../core/platform/nodeByteStore';
import { NodeFileLock } from '../core/platform/nodeFileLock';
import type { ByteStore, FileLock } from '../core/platform/ports';
import { SHARED_SKILLS_LOCK } from '../core/skills/store/learned/sharedSkillStore';

/**
 * Where Toolshed keeps its databases: the workspace's storage (`context.storageUri`), or the
 * global storage when no folder is open. Both are local folders owned by this extension.
 */
export function createByteStore(context: vscode.ExtensionContext): { store: ByteStore; folder: string } {
  const folder = (context.storageUri ?? context.globalStorageUri).fsPath;
  return { store: new NodeByteStore(folder), folder };
}

/**
 * The store every window of this user shares: the extension's global storage (learned skills of
 * scope tenant and global), with the lock file its writers take in turn.
 */
export function createSharedSkillStorage(context: vscode.ExtensionContext): { bytes: ByteStore; lock: FileLock } {
  const folder = context.globalStorageUri.fsPath;
  return { bytes: new NodeByteStore(folder), lock: new NodeFileLock(folder, SHARED_SKILLS_LOCK) };
}
