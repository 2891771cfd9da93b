import type * as vscode from 'vscode';
import type { EventSink, Logger, ToolshedEvent } from '../core/platform/ports';

/** Adapts the core Logger port onto a `LogOutputChannel` ("Toolshed" in the Output view). */
export function createOutputChannelLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    trace: (message, ...args) => channel.trace(message, ...args),
    debug: (message, ...args) => channel.debug(message, ...args),
    info: (message, ...args) => channel.info(message, ...args),
    warn: (message, ...args) => channel.warn(message, ...args),
    error: (message, ...args) => channel.error(message, ...args),
  };
}

/** The core events of this window: `events` for core to emit into, `onEvent` for the adapters that follow them. */
interface LoggedEvents {
  readonly events: EventSink;
  /** Every event; with `type`, only the events of that type (a listener for one kind is not called for the others). */
  onEvent(listener: (event: ToolshedEvent) => void, type?: string): vscode.Disposable;
}

/** Every core event becomes one structured log line (`event <type> <json payload>`), then reaches each `onEvent` listener. */
export function createLoggedEvents(logger: Logger): LoggedEvents {
  const listeners = new Set<{ listener: (event: ToolshedEvent) => void; type?: string }>();
  return {
    events: {
      emit(event) {
        logger.info(`event ${event.type} ${JSON.stringify(event.payload)}`);
        for (const { listener, type } of listeners) if (type === undefined || type === event.type) listener(event);
      },
    },
    onEvent(listener, type) {
      const entry = { listener, type };
      listeners.add(entry);
      return { dispose: () => listeners.delete(entry) };
    },
  };
}
