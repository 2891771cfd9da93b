import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real embedding server on 127.0.0.1 (Ollama's /api/embed and OpenAI's /v1/embeddings): a
 * text's vector counts its letters a–z, so texts sharing letters are close. `/hang` never answers.
 */
export class FakeEmbeddingServer {
  readonly requests: Array<{ path: string; input: string[] }> = [];
  private readonly server: Server;
  private readonly hanging: ServerResponse[] = [];
  garbage = false;
  /** Every path hangs (a server that stopped answering). */
  hangAll = false;
  /** Answers every request itself when set (a broken or hostile server: redirects, floods, bad JSON…). */
  reply: ((res: ServerResponse, input: string[]) => void) | undefined;

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get textsSeen(): string[] {
    return this.requests.flatMap((r) => r.input);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const input = (JSON.parse(body) as { input: string[] }).input;
    this.requests.push({ path: req.url ?? '', input });
    if (req.url === '/hang' || this.hangAll) {
      this.hanging.push(res);
      return;
    }
    if (this.reply) {
      this.hanging.push(res);
      this.reply(res, input);
      return;
    }
    const vectors = input.map(letterVector);
    res.setHeader('content-type', 'application/json');
    if (this.garbage) res.end(JSON.stringify({ embeddings: [['not', 'numbers']] }));
    else if (req.url === '/api/embed') res.end(JSON.stringify({ model: 'nomic-embed-text', embeddings: vectors }));
    else res.end(JSON.stringify({ data: vectors.map((embedding, index) => ({ index, embedding })).reverse() }));
  }
}

function letterVector(text: string): number[] {
  const v = new Array<number>(26).fill(0);
  for (const ch of text.toLowerCase()) if (ch >= 'a' && ch <= 'z') v[ch.charCodeAt(0) - 97]++;
  v[0] += 0.01; // never all zero
  return v;
}

/** A fresh server for each test of the calling `describe` (started before, stopped after). */
export function useFakeEmbeddingServer(): { server: FakeEmbeddingServer; base: string } {
  const state = { server: undefined as unknown as FakeEmbeddingServer, base: '' };
  beforeEach(async () => {
    state.server = new FakeEmbeddingServer();
    state.base = await state.server.start();
  });
  afterEach(() => state.server.stop());
  return state;
}
