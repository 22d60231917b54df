// Package sites is the sites family: docs sites, their structure (sections,
// section groups, site spaces, external links), share links, adaptive
// content schema, the published view and members' previews.
//
// # Storage
//
// A site is one item (keys.Site) holding its settings and its whole
// structure: sections, groups, site spaces, external links and share
// links. Reading a site's
// structure is one read, whatever its size, and every change of the
// structure is one read-modify-write guarded by the item's version
// (store.Update), so the invariants below hold in every stored version. The
// structure is bounded (MaxSections, MaxGroups, MaxSiteSpaces, MaxShareLinks,
// MaxExternalLinks, and the 400 KB item; a change that would not fit answers 409). The
// adaptive schema is a second item of the site's partition, deleted with
// the site; a basename is reserved by an item of its own (unique within the
// organization).
//
// The published view costs a bounded number of storage round trips: the
// caller's token and user (authentication), the caller's membership, the
// site's item, and the spaces its site spaces show: up to 4 read one by
// one, more with one query of the organization's live spaces (one round
// trip per 1,000 spaces of the organization, never per section or site
// space). BenchmarkPublishedSite counts them.
//
// # Structure invariants
//
// Kept by every operation (structure.check verifies them all before each
// write; a violation is a bug and nothing is written):
//
//  1. Root XOR sections: a site has site spaces at its root or sections,
//     never both. Adding the first section moves the root's site spaces
//     into it (keeping their order, paths and default), then adds the
//     requested space after them; that section is the default.
//  2. Defaults: when a site has sections, exactly one is the default; every
//     level (the root, each section) holding site spaces has exactly one
//     default site space. The first item of a level becomes its default.
//  3. Deleting a default picks the next: the item that followed it in order
//     (or the one before it, when it was last) becomes the default.
//  4. Paths are unique among siblings: section paths within the site, site
//     space paths within their level. New items get their path from their
//     title with a -2, -3... suffix when taken; a PATCH or a move to a taken
//     path answers 409.
//  5. A space appears at most once per level (409 otherwise).
//  6. A section holds at least one site space: removing (or moving away)
//     its last site space answers 409; delete the section instead.
//  7. Nothing is orphaned: deleting a section deletes its site spaces;
//     deleting a group keeps its sections, put at the group's place in the
//     top level in their order; deleting a site deletes its item (structure
//     and share links), its adaptive schema and its basename reservation.
//     Every section's group and every site space's section exist.
//  8. defaultSiteSection on site PATCH makes a section the default;
//     defaultSiteSpace makes a site space the default of the root, or of the
//     default section (after defaultSiteSection is applied) when the site
//     has sections; a site space of another level is a 400.
//  9. External links exist only beside sections: adding one to a site
//     without sections is a 400 (GitBook's answer); deleting the last
//     section of a site holding external links is a 409 (delete the links
//     first), rather than dropping them unasked. A link's group exists;
//     deleting a group puts its links, like its sections, at its place.
//
// # Order
//
// Ungrouped sections, groups and ungrouped external links share the top
// level's order; a group's sections and external links are ordered within
// it; site spaces within their level. Each item
// has an order key (package order) with a key between any two others, so a move
// or an insertion rewrites one key and never renumbers siblings. Moves:
// before/after a sibling puts the item in that sibling's container (a
// section joins the target section's group or the top level; a site space
// joins the target's section); without a position, sections and groups go
// to the end of the top level and site spaces to the end of their level.
// Lists (sections, groups, site spaces) and the published structure come
// in that order; page tokens carry the last item's order key.
//
// sortSiteStructure (PATCH .../structure/sort) moves any item (site space,
// section, group, external link) before or after a sibling of its own
// level, or to the level's end with an empty position; as GitBook's
// document says, sorting never changes an item's level: a pointer to an
// item of another level is a 400 naming position.before.id (or after),
// as is a pointer whose type is not the sibling's. The older per-kind
// moves (moveSiteSection, ...) still move between levels. Its answer is
// the moved item; with `Prefer: return=minimal` (GitBook's return
// preference, also on updateSiteExternalLinkById) 204 and
// Preference-Applied.
//
// # Rights
//
// Site rights follow the caller's level on the site (access.SiteNode):
// the highest of their organization role and the grants on the site to
// them and their teams (package grants manages them). Reading (sites, sections, groups, site spaces, the published view, the
// adaptive schema) and asking for a preview need read; creating a site and
// changing its structure (sections, groups, site spaces, external links,
// moves and sorting, duplicating a site space, the adaptive schema) needs
// create;
// the site's settings (PATCH, publish, unpublish, delete) and its share links
// (whose keys are secrets, listing included) need admin; creating a site
// needs the organization role create. Guests see only the sites granted to
// them (404 on the others); outsiders get 404 on everything. Adding a
// space to a site also needs read access to that space (spaces.Get). The
// spaces embedded in answers come from spaceshttp.View with the caller's
// level on the site; spaces deleted or moved to another organization are left out of the
// published view, and moved ones out of every view.
//
// # Published URLs and share links
//
// A site's published URL is https://<proxy origin>, else
// https://<hostname>, else, with SITES_DOMAIN set and a basename, under its
// organization's hostname: https://<org hostname>.<SITES_DOMAIN>/<basename>
// (PublishedBase; the reader resolves such hosts), else under the public
// URL (APP_URL): <APP_URL>/sites/<orgId>/<basename>, or
// <APP_URL>/sites/<siteId> without a basename. A section adds /<path>; a site space adds /<path> unless it is
// its level's default. Published URLs are shown only for a published site;
// for a share-link site only when the request's shareKey is an active
// link's key, and they then carry it (?shareKey=<key>). A shareKey that
// opens no active link answers 403 at once (links are in the site's item,
// read on every request); deleting a link removes its key. The published
// view (GET .../published) of an unpublished site is 404; deleted spaces are
// left out of it.
//
// # Adaptive schema
//
// PUT validates a JSON Schema draft-07 object: $schema (optional, draft-07),
// type "object", additionalProperties false, and properties each a boolean
// claim {type: "boolean", description?}, except "unsigned", an object
// {type: "object", description?, properties: boolean claims,
// additionalProperties: false}. Claim names are identifiers so that
// conditions can name them. A site without a schema answers an empty one.
// Template conditions are one per claim: visitor.claims.<name> === true,
// then visitor.claims.unsigned.<name> === true.
//
// # Customization
//
// A site's customization settings (getSiteCustomizationById, PUT
// updateSiteCustomizationById) have the shape, enums and limits of
// GitBook's current reference (siteshttp.SiteCustomizationInput: themes,
// corner styles, fonts, hex colours, code themes, header and footer links,
// ...); a PUT replaces them whole, as the reference requires; a site that
// set none answers the defaults (DefaultCustomization) with no updatedAt.
// A site space may override part of them (PATCH
// overrideSiteSpaceCustomizationById): the override is kept sparse and
// merged over the site's settings member by member within the settings'
// sections (styling, header, footer, themes...; MergeCustomization), any
// other value replacing the site's; null resets a member to the site's
// value. The override is validated merged over the defaults, so a wrong
// enum or colour is a 400 naming the field (styling.theme,
// styling.primaryColor.light). DELETE answers 205, or 204 when the site
// space had no override. The settings and every override are one item
// (keys.SiteCustomization), read with the site's item in one batch by the
// published view, which carries customizations {site, siteSpaces} (every
// site space's effective settings) and scripts (always empty: Galley has no
// integrations). Reading needs read; changing needs admin (they are the
// site's settings). Overrides of site spaces since removed are dropped at
// the next change.
//
// # Redirects
//
// A redirect leads from a source path (GitBook's pattern: /a/b, or a
// wildcard /a/* or /a*) to a section, a site space, a page of a site space
// or an external URL; "path" destinations (a page by its path) are refused
// (400 naming destination.kind): resolving a page's path is the content
// family's, which the sites function does not link. Sources are unique per
// state (live or draft); each redirect is an item keyed by its source (so
// the renderer's lookup of an unknown path, getSiteRedirectBySource, is one
// read, plus one query of the site's wildcards when no exact source
// matches: the longest wildcard prefix wins) and a pointer by id. Drafts
// are never live. The lookup's target is the destination's published URL
// (a page's: its site space's, the page's path being unknown here), with
// the suffix a wildcard matched when the redirect captures it, and the
// share key. Lists come in order of source (exact sources, then wildcards;
// orderBy is accepted and ignored). bulkUpsertSiteRedirects applies up to
// 500 changes one by one (create or update a live or draft redirect,
// delete one with a null destination, publish a draft over the live one),
// each reporting created, updated, deleted, published or error: a change
// that cannot be made (a destination the site lacks, nothing to delete or
// publish) does not stop the others. Creating, changing and deleting needs
// create (like the structure); listing and the lookup need read. Deleting
// a site deletes its redirects (after its item, in batches).
//
// # Resolving published URLs and site tokens
//
// GET and POST /v1/urls/published (public: the renderer asks for its
// visitors) resolve a URL as visitors see it: by proxy origin (each
// proxy is reserved across the installation, keys.SiteOrigin; the URL's
// host and its leading path parts are read in one batch, the longest
// reservation wins; a site's hostname, which no operation sets, reserves
// nothing), else under the public URL by /sites/<orgId>/<basename>
// or /sites/<siteId> (one batch; the host is not checked, so a renderer
// may serve these paths from its own host). Then a path part naming a
// section selects it (else the default section), the next naming a
// non-default site space of that level selects it (else the level's
// default), and the rest is pathname, the page's path in that space,
// which the renderer reads by path: an unknown page is not an error here
// (GitBook answers the site space and the path too; the renderer then asks
// getSiteRedirectBySource and shows its own 404). No page id is resolved
// (PublishedSiteContent has no field for it, and pages are the content
// family's). An unknown site, an unpublished one, a share-link site without
// an active key in the URL's shareKey are 404 in the error shape; a
// visitor-auth site without a valid visitor token is 401 (see "Visitor
// authentication"); a wrong key on a site that needs none is ignored.
// Sections and site spaces whose condition fails for the visitor are left
// out first (see "Adaptive conditions"), so a hidden section's path is
// read as a page path of the default section. basePath and siteBasePath are paths with
// a trailing slash; canonicalUrl is the published URL (with the section's
// path, as published URLs name it) and the pathname; complete is true.
//
// The answer's apiToken is a site token (package sitetoken): an HS256 JWT
// {kind: "site", site, organization, spaces, iat, exp}, valid one hour,
// signed with a key derived from the installation's secret. Galley accepts
// it as a bearer token (users.Authenticate, without a storage read) for a
// caller with no user and an access.SiteVisitor: access.CallerFrom refuses
// such a caller (401) everywhere, the HTTP layer refuses it (401) any
// operation but a visitor's reads (declared with their routes, httpapi.Op's
// Visitor: the published view,
// structure, customization, redirect lookup and search of a site, and the
// content reads of a space), and the services that serve those reads check
// that the site is the token's (and still published) and the space one of
// the token's (spaces.Get), else 404.
//
// # Visitor authentication
//
// A site's publishing auth (getSitePublishingAuthById,
// updateSitePublishingAuthById, regenerateSitePublishingAuthById; the
// site's administrators only: opAdmin, so lower roles 403 and outsiders
// 404) is one record of the site's partition (keys.SitePublishingAuth):
// the private key, 32 random bytes base64url, made on the first read or
// when Update leaves the site visitor-auth, and the fallback URL. It is
// deleted with the site's partition. Regenerating replaces the key.
//
// ResolveURL of a visitor-auth site needs a visitor token: the URL's
// jwt_token, else Visitor.Token (the API's visitorAuthToken or
// visitor.jwtToken; the reader's cookie). VerifyVisitorToken accepts a JWT
// whose header's alg is HS256, whose HMAC-SHA256 signature keyed by the
// private key's text matches, and whose payload has a numeric exp after
// now (and nbf, when present, not after now). Refusals are a
// *VisitorAuthError (Unauthorized) carrying the fallback URL, which the
// reader follows. The payload is the visitor's claims, but for
// "unsigned": the unsigned claims are the URL's visitor.<name> parameters
// (and Visitor.Unsigned) whose names the adaptive schema declares under
// unsigned, converted to their declared type; on any site.
//
// # Adaptive conditions
//
// A section's or site space's condition is an expression on the visitor's
// claims, read by a small parser (package condition, shared with the
// content family's page conditions; nothing is executed):
// visitor.claims.<path> compared with ===, !==, == or != against true,
// false, null, strings and numbers; &&, ||, !, parentheses; a bare operand
// is truthy as in JavaScript; a missing claim is undefined (=== null is
// false, == null true). Unknown syntax makes the condition false for every
// visitor; UpdateSection and UpdateSiteSpace refuse to store it (400,
// field condition). ResolveURL keeps the sections and site spaces whose
// condition holds (anonymous visitors have no claims, so a condition on a
// claim hides on public sites), groups still holding a section, and
// makes a level's first visible item its default when the default is
// hidden; the site token it issues names only the spaces left, so no
// content read reaches a hidden space, and a structure read with it
// (getSiteStructure, the published view, the reader's navigation) keeps
// only the site spaces of those spaces, their sections and groups. Not
// yet: conditions on pages and header links are not evaluated.
//
// # Search and structure
//
// getSiteStructure answers the published structure's shape for members
// (read) and visitors. searchSiteContent and prewarmSiteSearch are served
// by the search family (the index and bleve live there; the sites function
// must not link them, infra/linking_test.go): sites.SearchScope checks the
// site can be read and names the site spaces a scope covers; members find
// the spaces they may read, visitors those their token names.
//
// # External links
//
// An external link (addExternalLinkToSite, updateSiteExternalLinkById,
// deleteSiteExternalLinkById) is a title, an absolute http or https URL
// (400 naming url otherwise), an optional description, icon, translations
// of both (localizedTitle, localizedDescription: at most 100 languages,
// each text within its field's limit), a condition (parsed as the
// sections' are) and draft. It sits at the top level or in a group
// (parent; PATCH with null moves it to the top level's end, with a group
// to that group's end), among the sections and groups (invariant 9). The
// structure shows it where it sits (getSiteStructure's top level, a
// group's children; a group's sections list stays sections only). Members
// see every link; the published view leaves draft links out; a visitor
// (ResolveURL, and the site token's reads, which carry the ids of the
// links shown) sees the links that are not drafts and whose condition
// holds for their claims, and a group holding only hidden items is left
// out. The reader shows them in the top navigation (docs/reader.md).
//
// # Previews
//
// getSitePublishingPreviewById (read) answers a URL that shows the site as
// published, for one hour, published or not, whatever its visibility: the
// site's published URL (of the site space asked, or a target URL under
// the site's published root: 400 naming target otherwise) carrying a
// preview token (?preview=, package sitetoken, kind "preview": signed,
// bound to the site, holding the claims and draft). claims is rison
// (ParseRison: (plan:pro,beta:!t)), 400 naming claims unless an object;
// they are the previewed visitor's claims (conditions, as for a
// visitor-auth token's); draft (default true) shows draft external links.
// ResolveURL accepts the token instead of publication, share key and
// visitor token; the site token it issues is marked preview (its reads
// accept the unpublished site) and expires with the preview. The reader
// keeps the token in a cookie for the site's links, answers privately and
// noindex. Holding the URL is the capability, as GitBook's time-limited
// URL is: it never makes the site public, and a preview token is not a
// bearer token of the API (401). An invalid or expired token is ignored
// (an unpublished site is then 404).
//
// # Duplicating a site space
//
// duplicateSiteSpace copies the site space's space (the content family's
// duplicate: "<title> (copy)", with its pages and files) and adds it to
// the site: in a new section right after the site space's own (in the same
// group) when that site space is its section's only one, else right after
// it in its level (a site without sections: at its root, which is no
// section). Galley has no draft site spaces or sections: draft true is a
// 400 naming draft. It is served by the content function
// (siteshttp.RegisterDuplicate), which links content; the sites function
// does not. If the site changes meanwhile so that the site space is gone,
// the answer is 404 and the copy stays a space of the organization.
//
// # Other decisions
//
// publishSite and unpublishSite (POST .../publish, .../unpublish, as in the
// reference) are the way to set `published`, which no operation of the
// spec's list changes. Creating a site with spaces "sample" or "empty"
// creates an empty space through the spaces service (sample content comes
// with the content issue); it stays when the site is deleted.
package sites
