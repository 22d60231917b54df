// Connects the Model Context Protocol's official TypeScript SDK
// (@modelcontextprotocol/sdk, pinned in package.json) to a published
// site's MCP endpoint in Galley's local mode, as an AI agent would: its
// StreamableHTTPClientTransport initializes, lists the tools and calls
// both. The site is made through the API first. Run by infra/mcp_test.go
// with:
//   GALLEY_URL    the server's base URL
//   GALLEY_TOKEN  the instance administrator's token
//   MCP_SDK       the SDK's folder (node_modules/@modelcontextprotocol/sdk)
// Each step prints its name; a failure throws with the step's name.

import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { step } from './steps.mjs';

const sdk = (p) => pathToFileURL(`${process.env.MCP_SDK}/dist/esm/${p}`).href;
const { Client } = await import(sdk('client/index.js'));
const { StreamableHTTPClientTransport } = await import(sdk('client/streamableHttp.js'));
const endpoint = process.env.GALLEY_URL;

async function api(method, path, body, want) {
    const res = await fetch(`${endpoint}${path}`, {
        method,
        headers: { Authorization: `Bearer ${process.env.GALLEY_TOKEN}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.equal(res.status, want, `${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
}

// A site of two pages, open to agents.
const siteURL = await step('publish a site', async () => {
    const org = await api('POST', '/v1/orgs', { title: 'Acme' }, 201);
    const space = await api('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Handbook' }, 201);
    const cr = await api('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' }, 201);
    await api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
        changes: [
            { operation: 'insert_page', ref: 'start', document: { markdown: '# Getting started\n\nRead the install guide.\n' } },
            { operation: 'insert_page', into: 'start', document: { markdown: '# Install\n\nRun the installer twice.\n' } },
        ],
    }, 200);
    await api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, undefined, 200);
    const site = await api('POST', `/v1/orgs/${org.id}/sites`, { title: 'Acme Docs', spaces: [space.id] }, 201);
    await api('PATCH', `/v1/orgs/${org.id}/sites/${site.id}`, { basename: 'docs', agentsContext: 'included' }, 200);
    await api('POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`, undefined, 200);
    return (await api('GET', `/v1/orgs/${org.id}/sites/${site.id}`, undefined, 200)).urls.published.replace(/\/$/, '');
});

const client = new Client({ name: 'galley-mcp-e2e', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(`${siteURL}/~gitbook/mcp`));
await step('connect (initialize)', () => client.connect(transport));
assert.equal(client.getServerVersion()?.name, 'Acme Docs');
assert.ok(client.getServerCapabilities()?.tools, 'the server offers tools');

const { tools } = await step('listTools', () => client.listTools());
assert.deepEqual(tools.map((t) => t.name).sort(), ['getPage', 'searchDocumentation']);
for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', `${t.name}'s input schema`);
}

const found = await step('callTool searchDocumentation', () =>
    client.callTool({ name: 'searchDocumentation', arguments: { query: 'installer' } }));
assert.notEqual(found.isError, true, JSON.stringify(found));
const text = found.content[0].text;
assert.ok(text.includes(`URL: ${siteURL}/getting-started/install`), `search finds the page by its URL: ${text}`);

const page = await step('callTool getPage', () =>
    client.callTool({ name: 'getPage', arguments: { url: `${siteURL}/getting-started/install` } }));
assert.notEqual(page.isError, true, JSON.stringify(page));
const md = await (await fetch(`${siteURL}/getting-started/install.md`)).text();
assert.equal(page.content[0].text, md, 'getPage answers what the page\'s .md serves');
assert.ok(md.includes('Run the installer twice.'), md);

const missing = await step('callTool getPage (no such page)', () =>
    client.callTool({ name: 'getPage', arguments: { url: 'no/such/page' } }));
assert.equal(missing.isError, true, JSON.stringify(missing));

await step('ping', () => client.ping());
await step('close', () => client.close());
console.log('done');
