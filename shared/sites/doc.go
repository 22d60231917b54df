// Package sites is the sites family: docs sites, their structure (sections,
// section groups, site spaces), share links, adaptive content schema and the
// published view.
//
// # Storage
//
// A site is one item (keys.Site) holding its settings and its whole
// structure: sections, groups, site spaces and share links. Reading a site's
// structure is one read, whatever its size, and every change of the
// structure is one read-modify-write guarded by the item's version
// (store.Update), so the invariants below hold in every stored version. The
// structure is bounded (MaxSections, MaxGroups, MaxSiteSpaces, MaxShareLinks,
// and the 400 KB item; a change that would not fit answers 409). The
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
//
// # Order
//
// Ungrouped sections and groups share the top level's order; a group's
// sections are ordered within it; site spaces within their level. Each item
// has an order key (package order) with a key between any two others, so a move
// or an insertion rewrites one key and never renumbers siblings. Moves:
// before/after a sibling puts the item in that sibling's container (a
// section joins the target section's group or the top level; a site space
// joins the target's section); without a position, sections and groups go
// to the end of the top level and site spaces to the end of their level.
// Lists (sections, groups, site spaces) and the published structure come
// in that order; page tokens carry the last item's order key.
//
// # Rights
//
// Site rights follow the caller's organization role (access.Allowed):
// reading (sites, sections, groups, site spaces, the published view, the
// adaptive schema) needs read; creating a site and changing its structure
// (sections, groups, site spaces, moves, the adaptive schema) needs create;
// the site's settings (PATCH, publish, unpublish, delete) and its share links
// (whose keys are secrets, listing included) need admin. Guests see no sites
// (an empty list, 404 on a site); outsiders get 404 on everything. Adding a
// space to a site also needs read access to that space (spaces.Get). The
// spaces embedded in answers come from spaces.View with the organization
// role; spaces deleted or moved to another organization are left out of the
// published view, and moved ones out of every view.
//
// # Published URLs and share links
//
// A site's published URL is https://<proxy origin>, else
// https://<hostname>, else under the public URL (APP_URL):
// <APP_URL>/sites/<orgId>/<basename>, or <APP_URL>/sites/<siteId> without a
// basename. A section adds /<path>; a site space adds /<path> unless it is
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
// # Other decisions
//
// publishSite and unpublishSite (POST .../publish, .../unpublish, as in the
// reference) are the way to set `published`, which no operation of the
// spec's list changes. Creating a site with spaces "sample" or "empty"
// creates an empty space through the spaces service (sample content comes
// with the content issue); it stays when the site is deleted.
package sites
