// Drives Galley's local mode with GitBook's official API client
// (@gitbook/api, pinned in package.json), as a team moving its scripts to
// Galley would: author pages and a file, open a change request, have it
// reviewed and merge it, read pages by path and by revision, customize and
// publish a site, resolve its URL and search it, then change the site's
// structure (sections, external links, sorting, copies). Run by
// infra/client_test.go with:
//   GALLEY_URL       the server's base URL
//   GALLEY_TOKEN     the instance administrator's token
//   GITBOOK_API      the path of the client's ESM entry (dist/index.js)
// Each step prints its name; a failure throws with the step's name.

import assert from 'node:assert/strict';

const { GitBookAPI } = await import(process.env.GITBOOK_API);
const endpoint = process.env.GALLEY_URL;
const admin = new GitBookAPI({ endpoint, authToken: process.env.GALLEY_TOKEN });

async function step(name, fn) {
    try {
        const out = await fn();
        console.log('ok', name);
        return out;
    } catch (err) {
        const detail = err?.response ? ` (HTTP ${err.response.status}: ${JSON.stringify(err.response.data ?? err.message)})` : '';
        throw new Error(`step "${name}" failed: ${err?.message ?? err}${detail}`);
    }
}

// A user of the instance, made through Galley's administration API (GitBook
// has no such operation: its users sign up).
async function newUser(email, displayName) {
    const res = await fetch(`${endpoint}/v1/admin/users`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${process.env.GALLEY_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, displayName }),
    });
    assert.equal(res.status, 201, `create user ${email}: ${res.status}`);
    const { user, token } = await res.json();
    return { user, api: new GitBookAPI({ endpoint, authToken: token }) };
}

const me = await step('getAuthenticatedUser', async () => (await admin.user.getAuthenticatedUser()).data);
assert.ok(me.id);

const writer = await newUser('writer@example.com', 'Wren Writer');
const reviewer = await newUser('reviewer@example.com', 'Rory Reviewer');

const org = await step('createOrganization', async () => (await admin.orgs.createOrganization({ title: 'Acme Docs' })).data);
await step('inviteUsersToOrganization (editor)', () =>
    admin.orgs.inviteUsersToOrganization(org.id, { emails: ['writer@example.com'], role: 'admin' }));
await step('inviteUsersToOrganization (reviewer)', () =>
    admin.orgs.inviteUsersToOrganization(org.id, { emails: ['reviewer@example.com'], role: 'review' }));

const space = await step('createSpace', async () => (await writer.api.orgs.createSpace(org.id, { title: 'Handbook' })).data);
assert.equal(space.emoji, '', 'every Space carries emoji');

const cr = await step('createChangeRequest', async () =>
    (await writer.api.spaces.createChangeRequest(space.id, { subject: 'First pages' })).data);

// A 1x1 PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const update = await step('updateChangeRequestContent', async () =>
    (await writer.api.spaces.updateChangeRequestContent(space.id, cr.id, {
        changes: [
            { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: png }] },
            {
                operation: 'insert_page', ref: 'start', title: 'Getting started',
                document: { markdown: '# Getting started\n\nRead [the install guide](install.md).\n\n![Logo](./logo)\n' },
            },
            {
                operation: 'insert_page', into: 'start', title: 'Install',
                document: { markdown: '# Install\n\nRun the installer twice.\n' },
            },
        ],
    }, { compat: false })).data);
assert.equal(update.changeRequest.id, cr.id);
assert.equal(update.changes.length, 2); // one per page (files are in insertedFiles)
assert.equal(update.insertedFiles?.length, 1);

// The space asks for an approving review before a merge.
const ruled = await step('updateSpaceById (mergeRules)', async () =>
    (await writer.api.spaces.updateSpaceById(space.id, {
        mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] },
    })).data);
assert.equal(ruled.mergeRules.type, 'rules');
await step('mergeChangeRequest (refused: no review yet)', async () => {
    try {
        await writer.api.spaces.mergeChangeRequest(space.id, cr.id);
    } catch (err) {
        assert.equal(err?.statusCode ?? err?.response?.status, 409, `refusal status: ${err}`);
        return;
    }
    throw new Error('merged without the review the rules ask for');
});
const asked = await step('requestReviewersForChangeRequest', async () =>
    (await writer.api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.user.id] })).data);
assert.equal(asked.users[0].user.id, reviewer.user.id);
const pending = await step('getRequestedReviewersByChangeRequestId', async () =>
    (await reviewer.api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data);
assert.equal(pending.items.length, 1);
const review = await step('submitChangeRequestReview', async () =>
    (await reviewer.api.spaces.submitChangeRequestReview(space.id, cr.id, {
        status: 'approved', comment: { markdown: 'Clear and short.' },
    })).data);
assert.equal(review.requestedBy?.id, writer.user.id);
assert.equal(review.comment?.target?.review, review.id);
const reviews = await step('getReviewsByChangeRequestId', async () =>
    (await writer.api.spaces.getReviewsByChangeRequestId(space.id, cr.id)).data);
assert.equal(reviews.items.length, 1);
const one = await step('getChangeRequestReviewById', async () =>
    (await writer.api.spaces.getChangeRequestReviewById(space.id, cr.id, review.id)).data);
assert.equal(one.status, 'approved');

const merged = await step('mergeChangeRequest', async () => (await writer.api.spaces.mergeChangeRequest(space.id, cr.id)).data);
assert.equal(merged.result, 'merge');

const install = await step('getPageByPath', async () =>
    (await writer.api.spaces.getPageByPath(space.id, 'getting-started/install')).data);
assert.equal(install.title, 'Install');
assert.deepEqual(install.pages, []);

const head = await step('getSpaceById', async () => (await writer.api.spaces.getSpaceById(space.id)).data);
const rev = await step('getRevisionById', async () => (await writer.api.spaces.getRevisionById(space.id, head.revision)).data);
assert.equal(rev.id, head.revision);
const revPages = await step('listPagesInRevisionById', async () =>
    (await writer.api.spaces.listPagesInRevisionById(space.id, head.revision)).data);
assert.equal(revPages.pages[0].title, 'Getting started');
const byRevPath = await step('getPageInRevisionByPath', async () =>
    (await writer.api.spaces.getPageInRevisionByPath(space.id, head.revision, 'getting-started')).data);
assert.equal(byRevPath.title, 'Getting started');

const site = await step('createSite', async () => (await admin.orgs.createSite(org.id, { title: 'Acme Docs' })).data);
await step('addSpaceToSite', () => admin.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }));
// GitBook's PUT takes the whole settings: read them, change, write back.
const custom = await step('getSiteCustomizationById', async () => (await admin.orgs.getSiteCustomizationById(org.id, site.id)).data);
const { updatedAt, ...settings } = custom;
settings.styling.primaryColor = { light: '#0F766E', dark: '#5EEAD4' };
const customized = await step('updateSiteCustomizationById', async () =>
    (await admin.orgs.updateSiteCustomizationById(org.id, site.id, settings)).data);
assert.equal(customized.styling.primaryColor.light, '#0F766E');
const published = await step('publishSite', async () => (await admin.orgs.publishSite(org.id, site.id)).data);
const siteURL = (published.urls?.published ?? (await admin.orgs.getSiteById(org.id, site.id)).data.urls.published);
assert.ok(siteURL, 'a published site has urls.published');

const lookup = await step('getPublishedContentByUrl', async () =>
    (await admin.urls.getPublishedContentByUrl({ url: siteURL.replace(/\/$/, '') + '/getting-started/install' })).data);
assert.equal(lookup.site, site.id);
assert.equal(lookup.space, space.id);
assert.equal(lookup.pathname, 'getting-started/install');
assert.ok(lookup.apiToken, 'the visitor gets an API token');
const resolved = await step('resolvePublishedContentByUrl', async () =>
    (await admin.urls.resolvePublishedContentByUrl({ url: siteURL })).data);
assert.equal(resolved.site, site.id);

// The visitor's token reads the site's content and nothing else.
const visitor = new GitBookAPI({ endpoint, authToken: lookup.apiToken });
const viaVisitor = await step('getPageByPath (visitor token)', async () =>
    (await visitor.spaces.getPageByPath(space.id, 'getting-started/install')).data);
assert.equal(viaVisitor.title, 'Install');

const found = await step('searchSiteContent', async () =>
    (await admin.orgs.searchSiteContent(org.id, site.id, { query: 'installer', scope: { mode: 'all' } })).data);
assert.ok(JSON.stringify(found).includes('Install'), `search finds the page: ${JSON.stringify(found)}`);

// The site's other operations: search prewarm, a member's preview, a
// section with an external link sorted before it, a site space copied.
await step('prewarmSiteSearch', () => admin.orgs.prewarmSiteSearch(org.id, site.id));
const preview = await step('getSitePublishingPreviewById', async () =>
    (await admin.orgs.getSitePublishingPreviewById(org.id, site.id, { claims: '(plan:pro)', draft: false })).data);
assert.ok(preview.url.includes('preview='), `a preview URL carries its token: ${preview.url}`);
const changelog = await step('createSpace (changelog)', async () => (await writer.api.orgs.createSpace(org.id, { title: 'Changelog' })).data);
const section = await step('addSectionToSite', async () =>
    (await admin.orgs.addSectionToSite(org.id, site.id, { spaceId: changelog.id, title: 'Changelog' })).data);
const link = await step('addExternalLinkToSite', async () =>
    (await admin.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Status', url: 'https://status.example.com/' })).data);
assert.equal(link.object, 'site-external-link');
const renamed = await step('updateSiteExternalLinkById', async () =>
    (await admin.orgs.updateSiteExternalLinkById(org.id, site.id, link.id, { title: 'Status page' })).data);
assert.equal(renamed.title, 'Status page');
const sorted = await step('sortSiteStructure', async () =>
    (await admin.orgs.sortSiteStructure(org.id, site.id, { item: { type: 'site-external-link', id: link.id },
        position: { before: { type: 'site-section', id: section.id } } })).data);
assert.equal(sorted.id, link.id);
const structure = (await admin.orgs.getSiteStructure(org.id, site.id)).data;
assert.deepEqual(structure.structure.map((it) => it.object).slice(-2), ['site-external-link', 'site-section'],
    `the link is before the section: ${JSON.stringify(structure.structure.map((it) => it.title))}`);
const copy = await step('duplicateSiteSpace', async () =>
    (await admin.orgs.duplicateSiteSpace(org.id, site.id, section.siteSpaces.find((ss) => ss.space.id === changelog.id).id, {})).data);
assert.equal(copy.space.title, 'Changelog (copy)');
await step('deleteSiteExternalLinkById', () => admin.orgs.deleteSiteExternalLinkById(org.id, site.id, link.id));

console.log('done');
