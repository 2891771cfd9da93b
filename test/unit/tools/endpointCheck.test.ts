import * as assert from 'node:assert/strict';
import { toolshedSettingsSchema } from '../../../src/core/config/settingsSchema';
import type { EmbeddingsConfig } from '../../../src/core/config/settingsSchema';
import { checkEmbeddingEndpointLive, describeEndpointCheck, ENDPOINT_CHECK_TEXTS } from '../../../src/core/tools/index/endpointCheck';
import { useFakeEmbeddingServer } from '../search/embedding/fakeEmbeddingServer';

/** Settings as a user would write them, on top of the defaults. */
function settings(embeddings: Partial<EmbeddingsConfig>): EmbeddingsConfig {
  return toolshedSettingsSchema.parse({ embeddings }).embeddings;
}

/** The fake server's vector of a text (letter counts), unit length: the expected cosine. */
function letterCosine(a: string, b: string): number {
  const vector = (text: string) => {
    const v = new Array<number>(26).fill(0);
    for (const ch of text.toLowerCase()) if (ch >= 'a' && ch <= 'z') v[ch.charCodeAt(0) - 97]++;
    v[0] += 0.01;
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  const [x, y] = [vector(a), vector(b)];
  return x.reduce((sum, value, i) => sum + value * y[i], 0);
}

describe('Test Embedding Endpoint (real local HTTP server)', () => {
  const fake = useFakeEmbeddingServer();

  for (const path of ['/api/embed', '/v1/embeddings']) {
    it(`${path}: reports latency, dimensions and the cosine of the two texts`, async () => {
      const report = await checkEmbeddingEndpointLive(settings({ embedder: 'endpoint', endpointUrl: `${fake.base}${path}` }), true);
      assert.ok(report.ok, JSON.stringify(report));
      assert.deepEqual(fake.server.textsSeen, [...ENDPOINT_CHECK_TEXTS]);
      assert.equal(report.dimensions, 26);
      assert.ok(Math.abs(report.cosine - letterCosine(...ENDPOINT_CHECK_TEXTS)) < 1e-5, `cosine ${report.cosine}`);
      assert.ok(report.latencyMs >= 0);
      const line = describeEndpointCheck(report);
      assert.match(
        line,
        new RegExp(
          `^Embedding endpoint ${fake.base}${path} \\(model nomic-embed-text\\) works: \\d+ ms for 2 texts, 26 dimensions, cosine .* ${report.cosine.toFixed(3)}\\.$`,
        ),
      );
    });
  }

  it('says when search does not use the endpoint yet', async () => {
    const report = await checkEmbeddingEndpointLive(settings({ embedder: 'off', endpointUrl: `${fake.base}/api/embed` }), true);
    assert.ok(report.ok);
    assert.match(describeEndpointCheck(report), /toolshed\.embeddings\.embedder is not "endpoint", so search does not use it yet\.$/);
  });

  it('a loopback endpoint is tested in Restricted Mode too, like search uses it', async () => {
    const report = await checkEmbeddingEndpointLive(settings({ embedder: 'endpoint', endpointUrl: `${fake.base}/api/embed` }), false);
    assert.ok(report.ok);
  });

  it('a remote endpoint is refused before any request: without the user setting, and in Restricted Mode', async () => {
    const remote = 'https://embed.example.com/v1/embeddings';
    const noSetting = await checkEmbeddingEndpointLive(settings({ embedder: 'endpoint', endpointUrl: remote }), true);
    assert.ok(!noSetting.ok);
    assert.match(describeEndpointCheck(noSetting), /failed: embed\.example\.com is not this machine; set toolshed\.embeddings\.allowRemoteEndpoint/);
    const untrusted = await checkEmbeddingEndpointLive(settings({ embedder: 'endpoint', endpointUrl: remote, allowRemoteEndpoint: true }), false);
    assert.ok(!untrusted.ok);
    assert.match(untrusted.reason, /Restricted Mode/);
  });

  it('names the exact failure: no answer in time, a garbage answer, nobody listening', async () => {
    const hang = await checkEmbeddingEndpointLive(settings({ endpointUrl: `${fake.base}/hang`, endpointTimeoutMs: 100 }), true);
    assert.ok(!hang.ok);
    assert.equal(hang.reason, 'embedding endpoint gave no answer within 100 ms');
    fake.server.garbage = true;
    const garbage = await checkEmbeddingEndpointLive(settings({ endpointUrl: `${fake.base}/api/embed` }), true);
    assert.ok(!garbage.ok);
    assert.equal(garbage.reason, 'embedding endpoint returned 1 vectors for 2 texts');
    const refused = await checkEmbeddingEndpointLive(settings({ endpointUrl: 'http://127.0.0.1:9/api/embed' }), true);
    assert.ok(!refused.ok);
    assert.match(
      describeEndpointCheck(refused),
      /^Embedding endpoint http:\/\/127\.0\.0\.1:9\/api\/embed \(model nomic-embed-text\) failed: embedding endpoint unreachable: /,
    );
  });

  it('never shows a key carried in the URL query', async () => {
    const report = await checkEmbeddingEndpointLive(settings({ endpointUrl: `${fake.base}/api/embed?key=sk-secret-123` }), true);
    assert.ok(report.ok);
    assert.ok(!describeEndpointCheck(report).includes('sk-secret-123'));
    assert.match(describeEndpointCheck(report), /\/api\/embed \(query hidden\)/);
  });
});
