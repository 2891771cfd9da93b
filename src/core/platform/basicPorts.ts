import type { Clock, EventSink, Logger, TokenCounter, ToolshedEvent } from './ports';

/** Estimates tokens as ceil(characters / 4) (docs/contracts.md#token-estimate). */
export const lengthTokenCounter: TokenCounter = {
  count: async (text: string) => Math.ceil(text.length / 4),
};

export const systemClock: Clock = { now: () => Date.now() };

export const nullLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** A logger that keeps lines in memory; tests read `lines`. */
export class MemoryLogger implements Logger {
  readonly lines: Array<{ level: string; message: string }> = [];
  trace(message: string): void {
    this.lines.push({ level: 'trace', message });
  }
  debug(message: string): void {
    this.lines.push({ level: 'debug', message });
  }
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string | Error): void {
    this.lines.push({ level: 'error', message: message instanceof Error ? message.message : message });
  }
}

/** Collects events in memory; tests assert on `events`. */
export class MemoryEventSink implements EventSink {
  readonly events: ToolshedEvent[] = [];
  emit(event: ToolshedEvent): void {
    this.events.push(event);
  }
  ofType(type: string): ToolshedEvent[] {
    return this.events.filter((e) => e.type === type);
  }
}

export const nullEventSink: EventSink = { emit: () => undefined };
