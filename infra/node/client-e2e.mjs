// Drives Galley's local mode with GitBook's official API client
// (@gitbook/api, pinned in package.json), as a team moving its scripts to
// Galley would: author pages and files (one uploaded through an upload
// URL), open a change request, have it reviewed and merge it, read what
// it changed and who took part in it (its contributors, commenters and
// conversations, the organization's list of requests), read pages by
// path and by revision, customize and publish a site (its logo the
// upload's), resolve its URL and search it, track a visitor's events and
// aggregate them (site insights), then change the site's
// structure (sections, external links, sorting, copies). Run by
// infra/client_test.go with:
//   GALLEY_URL       the server's base URL
//   GALLEY_TOKEN     the instance administrator's token
//   GITBOOK_API      the path of the client's ESM entry (dist/index.js)
// Each step prints its name; a failure throws with the step's name.

import assert from 'node:assert/strict';
import { step } from './steps.mjs';

const { GitBookAPI } = await import(process.env.GITBOOK_API);
const endpoint = process.env.GALLEY_URL;
const admin = new GitBookAPI({ endpoint, authToken: process.env.GALLEY_TOKEN });

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
const pngBytes = Buffer.from(png, 'base64');
// The same image uploaded: an upload URL, then a PUT of the bytes to it
// (Galley's signed URL in local mode).
const upload = await step('generateStorageUploadUrl', async () =>
    (await writer.api.orgs.generateStorageUploadUrl(org.id, {
        file: { name: 'banner.png', type: 'image/png', size: pngBytes.length }, kind: 'organization_file',
    })).data);
assert.equal(upload.object, 'storage-signed-url');
await step('PUT to the upload URL', async () => {
    const res = await fetch(upload.url, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: pngBytes });
    assert.ok(res.ok, `upload: ${res.status} ${await res.text()}`);
});
const update = await step('updateChangeRequestContent', async () =>
    (await writer.api.spaces.updateChangeRequestContent(space.id, cr.id, {
        changes: [
            { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: png }] },
            // storageKey is Galley's: GitBook's document names no way to insert an upload.
            { operation: 'insert_files', files: [{ ref: 'banner', name: 'banner.png', storageKey: upload.key }] },
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
assert.equal(update.insertedFiles?.length, 2);
assert.equal(update.insertedFiles[1].size, pngBytes.length);

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

// What the request changed and who took part, as review tools read them.
const changes = await step('getChangeRequestChanges', async () =>
    (await reviewer.api.spaces.getChangeRequestChanges(space.id, cr.id, { limit: 1 })).data);
assert.equal(changes.changes[0].type, 'page_created');
assert.equal(changes.more, 1); // two pages (files are not listed)
const contributors = await step('getContributorsByChangeRequestId', async () =>
    (await reviewer.api.spaces.getContributorsByChangeRequestId(space.id, cr.id)).data);
assert.deepEqual(contributors.items.map((c) => [c.user.id, c.count, c.actionType]), [[writer.user.id, 1, 'edit']]);
const note = await step('postCommentInChangeRequest', async () =>
    (await writer.api.spaces.postCommentInChangeRequest(space.id, cr.id, { body: { markdown: 'Thanks!\nMerged.' } })).data);
await step('postCommentInSpace', () => reviewer.api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Nice space.' } }));
const crCommenters = await step('listCommentersInChangeRequest', async () =>
    (await writer.api.spaces.listCommentersInChangeRequest(space.id, cr.id)).data);
assert.deepEqual(crCommenters.items.map((m) => m.user.id).sort(), [writer.user.id, reviewer.user.id].sort());
const spaceCommenters = await step('listCommentersInSpace', async () =>
    (await writer.api.spaces.listCommentersInSpace(space.id)).data);
assert.deepEqual(spaceCommenters.items.map((m) => m.user.id), [reviewer.user.id]);
// A change request's conversations are its comment threads (the review's
// comment and the note).
const convs = await step('listChangeRequestConversations', async () =>
    (await writer.api.spaces.listChangeRequestConversations(space.id, cr.id)).data);
assert.deepEqual(convs.items.map((c) => [c.id, c.title]), [[note.id, 'Thanks!'], [review.comment.id, 'Clear and short.']]);
const renamedConversation = await step('updateChangeRequestConversation', async () =>
    (await writer.api.spaces.updateChangeRequestConversation(space.id, cr.id, note.id, { title: 'Merge note' })).data);
assert.equal(renamedConversation.title, 'Merge note');
await step('deleteChangeRequestConversation', () => writer.api.spaces.deleteChangeRequestConversation(space.id, cr.id, note.id));
const left = await step('listChangeRequestConversations (after delete)', async () =>
    (await writer.api.spaces.listChangeRequestConversations(space.id, cr.id)).data);
assert.deepEqual(left.items.map((c) => c.id), [review.comment.id]);
const orgCRs = await step('listChangeRequestsForOrganization', async () =>
    (await reviewer.api.orgs.listChangeRequestsForOrganization(org.id, { status: ['open', 'merged'], orderBy: 'createdAt' })).data);
assert.deepEqual(orgCRs.items.map((c) => c.id), [cr.id]);

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
// The upload's read link (Galley's downloadURL) as the site's logo.
settings.header.logo = { light: upload.downloadURL, dark: upload.downloadURL };
const customized = await step('updateSiteCustomizationById', async () =>
    (await admin.orgs.updateSiteCustomizationById(org.id, site.id, settings)).data);
assert.equal(customized.styling.primaryColor.light, '#0F766E');
await step('GET the logo', async () => {
    const res = await fetch(customized.header.logo.light);
    assert.ok(res.ok, `logo: ${res.status}`);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), pngBytes);
});
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

// Site insights (issue 28): the visitor's token tracks a page view and a
// search as GitBook's renderer does; local mode counts them on its
// in-process queue, then the aggregate and the segments answer them.
const at = { url: siteURL.replace(/\/$/, '') + '/getting-started/install', siteSection: null, siteSpace: null, siteShareKey: null,
    space: space.id, revision: null, page: viaVisitor.id };
const session = { sessionId: 'client-e2e', cookies: {}, userAgent: 'client-e2e', language: 'en', referrer: null };
await step('trackEventsInSiteById', () => visitor.orgs.trackEventsInSiteById(org.id, site.id, { events: [
    { type: 'page_view', location: at, session },
    { type: 'search_type_query', query: 'installer', resultsCount: 1, location: at, session },
] }));
const counted = await step('aggregateSiteEvents', async () => {
    const query = { range: 'last7Days', select: [{ column: 'eventsCount' }], groupBy: [{ column: 'eventType' }] };
    for (let i = 0; ; i++) {
        const { columns } = (await admin.orgs.aggregateSiteEvents(org.id, site.id, query)).data;
        const types = columns.find((c) => c.column === 'eventType').values;
        const counts = columns.find((c) => c.column === 'eventsCount').values;
        const byType = Object.fromEntries(types.map((t, j) => [t, counts[j]]));
        if (byType.page_view === 1 && byType.search_type_query === 1 || i === 100) return byType;
        await new Promise((ok) => setTimeout(ok, 100));
    }
});
assert.deepEqual(counted, { page_view: 1, search_type_query: 1 }, 'the tracked events, counted');
const segments = await step('listSiteVisitorSegments', async () => (await admin.orgs.listSiteVisitorSegments(org.id, site.id)).data);
assert.equal(segments.items.length, 1, `one segment: ${JSON.stringify(segments)}`);
assert.equal(segments.items[0].events, 2);

// The small operations of issue 31.
await step('createOrganizationInvite', () => admin.orgs.createOrganizationInvite(org.id, { role: 'read' }));
const links = await step('listOrganizationInviteLinks', async () => (await admin.orgs.listOrganizationInviteLinks(org.id)).data);
assert.equal(links.items.length, 1);
await step('updateOrganizationById (emailDomains)', () => admin.orgs.updateOrganizationById(org.id, { emailDomains: ['example.org'] }));
// The audit log (docs/audit.md): the changes above, newest first.
const audit = await step('listOrganizationAuditEvents', async () =>
    (await admin.orgs.listOrganizationAuditEvents(org.id, { action: 'organization.settings.updated', limit: 5 })).data);
assert.equal(audit.items.length, 1, `one settings change: ${JSON.stringify(audit)}`);
assert.equal(audit.items[0].actor.id, me.id);
const auditEvent = await step('getOrganizationAuditEvent', async () =>
    (await admin.orgs.getOrganizationAuditEvent(org.id, audit.items[0].id)).data);
assert.equal(auditEvent.target.id, org.id);
const auditActions = await step('listOrganizationAuditEventActions', async () =>
    (await admin.orgs.listOrganizationAuditEventActions(org.id)).data);
assert.ok(auditActions.items.some((a) => a.id === 'organization.link-invite.created'));
const joiner = await newUser('joiner@example.org', 'Jo Joiner');
await step('joinOrganization', () => joiner.api.orgs.joinOrganization(org.id));
const joined = await step('getOrganizationById (joined)', async () => (await joiner.api.orgs.getOrganizationById(org.id)).data);
assert.equal(joined.id, org.id);
const renamedUser = await step('updateUserById', async () =>
    (await writer.api.users.updateUserById(writer.user.id, { displayName: 'Wren W.', photoURL: 'https://img.example.com/wren.png' })).data);
assert.equal(renamedUser.displayName, 'Wren W.');
assert.equal(renamedUser.photoURL, 'https://img.example.com/wren.png');

const petsYAML = 'openapi: 3.0.3\ninfo: {title: Pets, version: "1"}\npaths:\n  /pets:\n    get: {tags: [pets], responses: {200: {description: ok}}}\n';
await step('createOpenApiSpec', () => admin.orgs.createOpenApiSpec(org.id, { slug: 'pets', source: { text: petsYAML } }));
for (let i = 0; ; i++) {
    const sp = (await admin.orgs.getOpenApiSpecBySlug(org.id, 'pets')).data;
    if (sp.processingState === 'complete') break;
    assert.ok(i < 100, `spec not processed: ${sp.processingState}`);
    await new Promise((r) => setTimeout(r, 50));
}
const visible = await step('updateOpenApiSpecBySlug', async () =>
    (await admin.orgs.updateOpenApiSpecBySlug(org.id, 'pets', { visibility: 'public' })).data);
assert.equal(visible.visibility, 'public');
const raw = await step('getLatestOpenApiSpecVersionContentRaw', async () =>
    (await admin.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'pets')).data);
assert.deepEqual(raw, { text: petsYAML, format: 'yaml' });
const petsSource = (props) => ({ type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props });
const computed = await step('getComputedRevision', async () =>
    (await writer.api.spaces.getComputedRevision(space.id, { seed: 'api', source: petsSource({ models: false }) })).data);
assert.deepEqual(computed.pages.map((p) => p.title), ['pets']);
const computedDoc = await step('getComputedDocument', async () =>
    (await writer.api.spaces.getComputedDocument(space.id, { seed: 'api', source: petsSource({ doc: 'tag', page: 'pets' }) })).data);
assert.equal(computedDoc.nodes[0].type, 'openapi-operation');

const byURL = await step('getContentByUrl', async () => (await writer.api.urls.getContentByUrl({ url: install.urls.app })).data);
assert.equal(byURL.space.id, space.id);
assert.equal(byURL.page.id, install.id);
// Link cards go through the guarded fetcher: by default (no
// FETCH_ALLOW_PRIVATE) this loopback server's own pages are refused.
for (const [name, call] of [
    ['getEmbedByUrl', () => writer.api.urls.getEmbedByUrl({ url: siteURL })],
    ['getEmbedByUrlInSpace', () => writer.api.spaces.getEmbedByUrlInSpace(space.id, { url: siteURL })],
]) {
    await step(`${name} (loopback refused)`, async () => {
        try {
            await call();
        } catch (err) {
            assert.equal(err?.statusCode ?? err?.response?.status, 400, `refusal status: ${err}`);
            return;
        }
        throw new Error('a loopback address was fetched');
    });
}

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
const renamedLink = await step('updateSiteExternalLinkById', async () =>
    (await admin.orgs.updateSiteExternalLinkById(org.id, site.id, link.id, { title: 'Status page' })).data);
assert.equal(renamedLink.title, 'Status page');
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

// Permissions and team members (issue 27): a reader (organization role
// read) reaches a space by a direct grant (read) and through a team's
// grant on the collection above it (edit); the aggregate lists them once,
// at edit, and removing the team's grant applies at their next request.
const reader = await newUser('reader@example.com', 'Rae Reader');
await step('inviteUsersToOrganization (reader)', () =>
    admin.orgs.inviteUsersToOrganization(org.id, { emails: ['reader@example.com'], role: 'read' }));
const writers = await step('createOrganizationTeam', async () => (await admin.orgs.createOrganizationTeam(org.id, { title: 'Writers' })).data);
await step('addMemberToOrganizationTeamById', () => admin.orgs.addMemberToOrganizationTeamById(org.id, writers.id, reader.user.id, { role: 'owner' }));
await step('updateMembersInOrganizationTeam', () => admin.orgs.updateMembersInOrganizationTeam(org.id, writers.id, { add: ['writer@example.com'] }));
const teamMembers = await step('listTeamMembersInOrganizationById', async () => (await admin.orgs.listTeamMembersInOrganizationById(org.id, writers.id)).data);
assert.deepEqual(teamMembers.items.map((m) => m.team.role).sort(), ['member', 'owner']);
const shelf = await step('createCollection', async () => (await admin.orgs.createCollection(org.id, { title: 'Shelf' })).data);
const filed = await step('createSpace (in a collection)', async () => (await admin.orgs.createSpace(org.id, { title: 'Filed', parent: shelf.id })).data);
await step('inviteToCollection', () => admin.collections.inviteToCollection(shelf.id, { role: 'read', teams: [writers.id] }));
await step('updateTeamPermissionInCollection', () => admin.collections.updateTeamPermissionInCollection(shelf.id, writers.id, { role: 'edit' }));
const colTeams = await step('listTeamPermissionsInCollection', async () => (await admin.collections.listTeamPermissionsInCollection(shelf.id)).data);
assert.deepEqual(colTeams.items.map((t) => [t.team.id, t.permission]), [[writers.id, 'edit']]);
await step('inviteToSpace', () => admin.spaces.inviteToSpace(filed.id, { role: 'comment', users: [reader.user.id] }));
await step('updateUserPermissionInSpace', () => admin.spaces.updateUserPermissionInSpace(filed.id, reader.user.id, { role: 'read' }));
const spaceUsers = await step('listUserPermissionsInSpace', async () => (await admin.spaces.listUserPermissionsInSpace(filed.id)).data);
assert.deepEqual(spaceUsers.items.map((u) => [u.user.id, u.permission]), [[reader.user.id, 'read']]);
const reach = await step('listPermissionsAggregateInSpace', async () => (await admin.spaces.listPermissionsAggregateInSpace(filed.id)).data);
const readerReach = reach.items.filter((u) => u.user.id === reader.user.id);
assert.equal(readerReach.length, 1, 'listed once');
assert.equal(readerReach[0].permission, 'edit');
const colReach = await step('listPermissionsAggregateInCollection', async () => (await admin.collections.listPermissionsAggregateInCollection(shelf.id, { role: 'edit' })).data);
assert.ok(colReach.items.every((u) => u.permission === 'edit'), 'the role filter');
await step('removeTeamFromCollection', () => admin.collections.removeTeamFromCollection(shelf.id, writers.id));
const after = (await reader.api.spaces.getSpaceById(filed.id)).data;
assert.equal(after.permissions.edit, false, 'the team grant is gone at the next request');
await step('removeUserFromSpace', () => admin.spaces.removeUserFromSpace(filed.id, reader.user.id));

// Site permissions: a guest of the organization reaches the site only
// through grants (their team's, then their own); the reader gets admin on
// it by a grant, above their organization role; removing a grant applies
// at the next request.
const guestUser = await newUser('guest@example.com', 'Gil Guest');
await step('inviteUsersToOrganization (guest)', () =>
    admin.orgs.inviteUsersToOrganization(org.id, { emails: ['guest@example.com'], role: null }));
await step('addMemberToOrganizationTeamById (guest)', () => admin.orgs.addMemberToOrganizationTeamById(org.id, writers.id, guestUser.user.id, {}));
await assert.rejects(guestUser.api.orgs.getSiteById(org.id, site.id), (e) => (e?.statusCode ?? e?.response?.status) === 404, 'a guest without grants');
await step('inviteToSite', () => admin.orgs.inviteToSite(org.id, site.id, { role: 'read', teams: [writers.id] }));
await step('inviteToSite (users)', () => admin.orgs.inviteToSite(org.id, site.id, { role: 'edit', users: [reader.user.id] }));
await step('updateTeamPermissionInSite', () => admin.orgs.updateTeamPermissionInSite(org.id, site.id, writers.id, { role: 'comment' }));
await step('updateUserPermissionInSite', () => admin.orgs.updateUserPermissionInSite(org.id, site.id, reader.user.id, { role: 'admin' }));
const siteTeams = await step('listTeamPermissionsInSite', async () => (await admin.orgs.listTeamPermissionsInSite(org.id, site.id)).data);
assert.deepEqual(siteTeams.items.map((t) => [t.team.id, t.permission]), [[writers.id, 'comment']]);
const siteUsers = await step('listUserPermissionsInSite', async () => (await admin.orgs.listUserPermissionsInSite(org.id, site.id)).data);
assert.deepEqual(siteUsers.items.map((u) => [u.user.id, u.permission]), [[reader.user.id, 'admin']]);
const siteReach = await step('listPermissionsAggregateInSite', async () =>
    (await admin.orgs.listPermissionsAggregateInSite(org.id, site.id, { sort: 'name', order: 'asc' })).data);
const byUser = Object.fromEntries(siteReach.items.map((u) => [u.user.id, u]));
assert.equal(siteReach.items.length, Object.keys(byUser).length, 'each user listed once');
assert.equal(byUser[reader.user.id].permission, 'admin');
assert.deepEqual(byUser[reader.user.id].origin, { type: 'site', site: site.id, reason: 'member' });
assert.equal(byUser[guestUser.user.id].permission, 'comment');
assert.equal(byUser[guestUser.user.id].origin.reason, 'team');
const guests = (await admin.orgs.listPermissionsAggregateInSite(org.id, site.id, { role: 'guest' })).data;
assert.deepEqual(guests.items.map((u) => u.user.id), [guestUser.user.id], 'the role filter (guest)');
assert.equal((await guestUser.api.orgs.getSiteById(org.id, site.id)).data.permissions.view, true, 'the team grant reaches the guest');
assert.equal((await reader.api.orgs.getSiteById(org.id, site.id)).data.permissions.admin, true, 'the reader administers the site');
await step('removeTeamFromSite', () => admin.orgs.removeTeamFromSite(org.id, site.id, writers.id));
await assert.rejects(guestUser.api.orgs.getSiteById(org.id, site.id), (e) => (e?.statusCode ?? e?.response?.status) === 404, 'the team grant is gone at the next request');
await step('removeUserFromSite', () => admin.orgs.removeUserFromSite(org.id, site.id, reader.user.id));
assert.equal((await reader.api.orgs.getSiteById(org.id, site.id)).data.permissions.admin, false, 'the user grant is gone at the next request');
await step('deleteMemberFromOrganizationTeamById', () => admin.orgs.deleteMemberFromOrganizationTeamById(org.id, writers.id, reader.user.id));

console.log('done');
