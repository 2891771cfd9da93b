import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { EndpointEmbedder, EndpointError } from '../../../../src/core/search/embedding/endpointEmbedder';
import { checkEmbeddingEndpoint, isLoopbackAddress } from '../../../../src/core/trust/embeddingEndpoint';
import { redact } from '../../../../src/core/privacy/redaction';
import { FakeEmbeddingServer, useFakeEmbeddingServer } from './fakeEmbeddingServer';

/** Streams `total` bytes of digits as a vector's numbers, pausing on back-pressure; `sent.bytes` counts what went out. */
function flood(res: ServerResponse, total: number, sent: { bytes: number }): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"embeddings":[[');
  const chunk = Buffer.alloc(64 * 1024, '1');
  const pump = () => {
    while (sent.bytes < total && !res.destroyed) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end(']]}');
  };
  pump();
}

describe('embedding endpoint client limits (real local HTTP servers)', () => {
  const fake = useFakeEmbeddingServer();

  it('a redirect is not followed: the texts reach the configured server only', async () => {
    const elsewhere = new FakeEmbeddingServer();
    const other = await elsewhere.start();
    try {
      fake.server.reply = (res) => {
        res.writeHead(307, { location: `${other}/api/embed` });
        res.end();
      };
      const embedder = new EndpointEmbedder({ url: `${fake.base}/api/embed`, model: 'm', scrub: redact });
      await assert.rejects(
        embedder.embed(['secret plan for the merger']),
        (e: unknown) => e instanceof EndpointError && /HTTP 307.*redirects are not followed/.test(e.message),
      );
      assert.deepEqual(elsewhere.textsSeen, [], 'the redirect target received nothing');
    } finally {
      await elsewhere.stop();
    }
  });

  it('an endpoint trusted as this machine is judged by the address its name resolves to', async () => {
    // `localhost` resolves to 127.0.0.1 here: a rule that refuses that address must stop the
    // request before it is sent, whatever the name says.
    const port = new URL(fake.base).port;
    const refusing = new EndpointEmbedder({
      url: `http://localhost:${port}/api/embed`,
      model: 'm',
      scrub: redact,
      connectTo: (address) => address.startsWith('10.'),
    });
    await assert.rejects(refusing.embed(['x']), (e: unknown) => e instanceof EndpointError && /not this machine/.test(e.message));
    assert.equal(fake.server.requests.length, 0, 'nothing was sent');
    const loopback = new EndpointEmbedder({ url: `http://localhost:${port}/api/embed`, model: 'm', scrub: redact, connectTo: isLoopbackAddress });
    assert.equal((await loopback.embed(['x'])).length, 1);
  });

  it('a name under .localhost is accepted only as loopback-only, and only loopback addresses pass', () => {
    const verdict = checkEmbeddingEndpoint('http://embed.localhost:11434/api/embed', { allowRemote: false, workspaceTrusted: true });
    assert.ok(verdict.ok && verdict.loopbackOnly);
    const remote = checkEmbeddingEndpoint('https://embed.example.com/v1/embeddings', { allowRemote: true, workspaceTrusted: true });
    assert.ok(remote.ok && !remote.loopbackOnly);
    fc.assert(fc.property(fc.ipV4(), (ip) => isLoopbackAddress(ip) === ip.startsWith('127.') && isLoopbackAddress(`::ffff:${ip}`) === ip.startsWith('127.')));
    fc.assert(fc.property(fc.ipV6(), (ip) => isLoopbackAddress(ip) === (ip === '::1' || ip === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(ip))));
  });

  it('an answer larger than the batch can need is refused while it streams, not buffered whole', async () => {
    const total = 50 * 2 ** 20;
    const sent = { bytes: 0 };
    fake.server.reply = (res) => flood(res, total, sent);
    const embedder = new EndpointEmbedder({ url: `${fake.base}/api/embed`, model: 'm', scrub: redact, timeoutMs: 30_000 });
    await assert.rejects(embedder.embed(['one text']), (e: unknown) => e instanceof EndpointError && /more than this batch can need/.test(e.message));
    assert.ok(sent.bytes < total / 4, `the server could write only ${sent.bytes} of ${total} bytes`);
  });

  it('a declared length over the limit is refused before the body is read', async () => {
    fake.server.reply = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(200 * 2 ** 20) });
      res.write('{"embeddings":');
    };
    const embedder = new EndpointEmbedder({ url: `${fake.base}/api/embed`, model: 'm', scrub: redact });
    await assert.rejects(embedder.embed(['x']), /over the \d+ this batch can need/);
  });

  it('a trickling answer ends at the timeout', async () => {
    fake.server.reply = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"embeddings":[[');
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('1,')), 10);
      res.on('close', () => clearInterval(drip));
    };
    const embedder = new EndpointEmbedder({ url: `${fake.base}/api/embed`, model: 'm', scrub: redact, timeoutMs: 150 });
    await assert.rejects(embedder.embed(['x']), /no answer within 150 ms/);
    assert.match(embedder.failure ?? '', /no answer within 150 ms/);
  });

  it('numbers at the edge of the float range: unit vectors, or an EndpointError past it', async () => {
    const answer = (body: string) => (fake.server.reply = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    answer('{"embeddings":[[0,0.5],[0,-3.4e38]]}');
    const embedder = new EndpointEmbedder({ url: `${fake.base}/api/embed`, model: 'm', scrub: redact, timeoutMs: 5000 });
    const [a, b] = await embedder.embed(['a', 'b']);
    assert.deepEqual([...a!], [0, 1]);
    assert.deepEqual([...b!], [0, -1]);
    answer('{"embeddings":[[0,1],[0,1e39]]}');
    await assert.rejects(embedder.embed(['a', 'b']), /beyond the float range/);
  });

  it('any answer body is either two unit vectors or an EndpointError (never a crash or a hang)', async () => {
    const vector = fc.array(fc.oneof(fc.double(), fc.integer(), fc.string(), fc.constant(null)), { maxLength: 6 });
    const body = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record({ embeddings: fc.array(vector, { maxLength: 3 }) }).map((b) => JSON.stringify(b)),
      fc
        .record({ data: fc.array(fc.record({ index: fc.oneof(fc.integer(), fc.string()), embedding: vector }), { maxLength: 3 }) })
        .map((b) => JSON.stringify(b)),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(200, 201, 204, 301, 404, 500), async (text, status) => {
        fake.server.reply = (res) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(status === 204 ? undefined : text);
        };
        const embedder = new EndpointEmbedder({ url: `${fake.base}/api/embed`, model: 'm', scrub: redact, timeoutMs: 5000 });
        try {
          const vectors = await embedder.embed(['a', 'b']);
          assert.equal(vectors.length, 2);
          for (const v of vectors) {
            assert.ok(v.every(Number.isFinite));
            const length = Math.hypot(...v);
            assert.ok(length === 0 || Math.abs(length - 1) < 1e-5, `length ${length}`);
          }
        } catch (error) {
          assert.ok(error instanceof EndpointError, String(error));
        }
      }),
      { numRuns: 60 },
    );
  });
});
