import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { toolshed } from './helpers';
import { withSettings } from './chatHelpers';
import { ENDPOINT_CHECK_TEXTS, type EndpointCheckReport } from '../../../src/core/tools/index/endpointCheck';
// The unit tests' embedding server: a real one on 127.0.0.1 whose vectors count letters a–z.
import { FakeEmbeddingServer } from '../../unit/search/embedding/fakeEmbeddingServer';

suite('Toolshed: Test Embedding Endpoint (local HTTP server)', () => {
  test('embeds two texts through the configured endpoint and reports dimensions, or the exact failure', async () => {
    await toolshed();
    const server = new FakeEmbeddingServer();
    const base = await server.start();
    try {
      await withSettings({ 'toolshed.embeddings.embedder': 'endpoint', 'toolshed.embeddings.endpointUrl': `${base}/api/embed` }, async () => {
        const report = await vscode.commands.executeCommand<EndpointCheckReport>('toolshed.testEmbeddingEndpoint');
        assert.ok(report.ok, JSON.stringify(report));
        assert.equal(report.dimensions, 26);
        assert.equal(report.endpoint, `${base}/api/embed`);
        // The setting also turns the endpoint on for search, which may embed the index meanwhile: only the check's own request is asserted.
        const checkRequests = server.requests.filter((request) => request.input.includes(ENDPOINT_CHECK_TEXTS[0]));
        assert.deepEqual(
          checkRequests.map((request) => request.input),
          [[...ENDPOINT_CHECK_TEXTS]],
          'the two test texts, in one request',
        );
      });
    } finally {
      await server.stop();
    }
    // Nobody listens there any more: the failure names it.
    await withSettings({ 'toolshed.embeddings.embedder': 'endpoint', 'toolshed.embeddings.endpointUrl': `${base}/api/embed` }, async () => {
      const report = await vscode.commands.executeCommand<EndpointCheckReport>('toolshed.testEmbeddingEndpoint');
      assert.ok(!report.ok);
      assert.match(report.reason, /^embedding endpoint unreachable/);
    });
  });
});
