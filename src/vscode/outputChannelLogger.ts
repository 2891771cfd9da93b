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

/** Every core event becomes one structured log line: `event <type> <json payload>`. */
export function createLoggingEventSink(logger: Logger, listeners: Array<(event: ToolshedEvent) => void> = []): EventSink {
  return {
    emit(event) {
      logger.info(`event ${event.type} ${JSON.stringify(event.payload)}`);
      for (const listener of listeners) listener(event);
    },
  };
}
