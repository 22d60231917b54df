package apitest

// deviations are the operations whose answers do not yet validate against
// one of GitBook's documents ("old": 0.130.0, "new": 0.202.0), each with
// the reason. The check skips exactly these (reference, operation) pairs;
// every other 2xx JSON answer of every test must validate. The list only
// shrinks: an entry goes when its answers are fixed (issue 13 names most).
var deviations = map[string]string{
	// The spec wins: it defines translation settings (object
	// `translation-settings`: title, languages), where GitBook's documents
	// describe a translation run under the same operations.
	"old:createTranslation": spec, "new:createTranslation": spec,
	"old:getTranslation": spec, "new:getTranslation": spec,
	"old:listTranslations": spec, "new:listTranslations": spec,
	"old:updateTranslation": spec, "new:updateTranslation": spec,

	// mergeRules (the current document requires it on spaces and
	// organizations) comes with change-request reviews (issue 13, item 4).
	"new:createSpace": mergeRules, "new:getSpaceById": mergeRules, "new:updateSpaceById": mergeRules,
	"new:restoreSpace": mergeRules, "new:listSpacesInOrganizationById": mergeRules,
	"new:listSpacesInCollectionById": mergeRules, "new:listSpacesForOrganizationMember": mergeRules,
	"new:createOrganization": mergeRules, "new:getOrganizationById": mergeRules,
	"new:updateOrganizationById": mergeRules, "new:listOrganizationsForAuthenticatedUser": mergeRules,
	"new:getOrganizationsForEmailDomain": mergeRules,

	// Sites: appliedType, defaultLevel, permissions, urls.preview, the
	// draft flags and a group's children (current document), urls.location
	// of sections and site spaces (0.130.0), and the published view's
	// customizations and scripts (issue 13, item 5).
	"new:createSite": sites, "new:getSiteById": sites, "new:updateSiteById": sites, "new:listSites": sites,
	"old:createSite": sites, "old:getSiteById": sites, "old:updateSiteById": sites, "old:listSites": sites,
	"new:publishSite": sites, "new:unpublishSite": sites, "old:publishSite": sites, "old:unpublishSite": sites,
	"new:getPublishedContentSite": sites, "old:getPublishedContentSite": sites,
	"new:addSectionGroupToSite": sites, "old:addSectionGroupToSite": sites,
	"new:addSectionToSite": sites, "old:addSectionToSite": sites,
	"new:addSectionToGroup": sites, "old:addSectionToGroup": sites,
	"new:addSpaceToSite": sites, "old:addSpaceToSite": sites,
	"new:listSiteSectionGroups": sites, "old:listSiteSectionGroups": sites,
	"new:listSiteSections": sites, "old:listSiteSections": sites,
	"new:listSiteSpaces": sites, "old:listSiteSpaces": sites,
	"new:moveSiteSection": sites, "old:moveSiteSection": sites,
	"new:moveSiteSectionGroup": sites, "old:moveSiteSectionGroup": sites,
	"new:moveSiteSpace": sites, "old:moveSiteSpace": sites,
	"new:updateSiteSectionById": sites, "old:updateSiteSectionById": sites,
	"new:updateSiteSectionGroupById": sites, "old:updateSiteSectionGroupById": sites,
	"new:updateSiteSpaceById": sites, "old:updateSiteSpaceById": sites,
	// The adaptive schema's properties are stored as sent; GitBook's
	// documents require a description on each (the PUT should refuse).
	"new:getSiteAdaptiveSchema": adaptive, "old:getSiteAdaptiveSchema": adaptive,
	"new:updateSiteAdaptiveSchema": adaptive, "old:updateSiteAdaptiveSchema": adaptive,

	// Pages and revisions: every page's pages, tags, computed and layout
	// fields, revision tags and merge sources, link locations' kinds
	// (issue 13, items 2 and 3).
	"new:getCurrentRevision": pages, "old:getCurrentRevision": pages,
	"new:getRevisionOfChangeRequestById": pages, "old:getRevisionOfChangeRequestById": pages,
	"new:getPageById": pages, "old:getPageById": pages,
	"new:getPageInChangeRequestById": pages, "old:getPageInChangeRequestById": pages,
	"new:listPages": pages, "old:listPages": pages,
	"new:listPagesInChangeRequest": pages, "old:listPagesInChangeRequest": pages,
	"old:listPageLinksInSpace": pages, "old:listPageLinksInChangeRequest": pages,
	"old:listSpaceFileBacklinks": pages, "old:listChangeRequestFileBacklinks": pages,
	"new:updateChangeRequestContent": "authoring answers {changeRequest, changes, insertedFiles} (issue 13, item 1)",

	// Search results lack score, rank, description and ancestors.
	"new:searchSpaceContent":        "search results: score, rank, description, ancestors",
	"new:searchOrganizationContent": "search results: type, score, rank, description, ancestors",

	// OpenAPI specs: lastProcessedErrorCount and the version content's
	// urls (issue 15).
	"new:createOpenAPISpec": openapi, "new:createOrUpdateOpenAPISpecBySlug": openapi,
	"new:getOpenAPISpecBySlug": openapi, "new:listOpenAPISpecs": openapi,
	"new:getLatestOpenAPISpecVersionContent": openapi, "new:getOpenAPISpecVersionContentById": openapi,

	// Git info: the installation fields the current document requires
	// (Galley's Git Sync has no app installation).
	"new:getSpaceGitInfo": "git info: installationId, installationProvider, installationStatus",
}

const (
	spec       = "the spec's shape differs"
	mergeRules = "mergeRules"
	sites      = "site fields"
	adaptive   = "adaptive schema properties without description"
	pages      = "page and revision fields"
	openapi    = "OpenAPI spec fields"
)
