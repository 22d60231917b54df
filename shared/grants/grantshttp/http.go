// Package grantshttp declares the permissions operations of spaces,
// collections and sites (GitBook's space-permissions,
// collection-permissions and site-permissions) and registers them on an
// API. The operations are the same on every kind: one generic
// registration serves each, with its path; only the aggregate's answer
// and filters differ on sites, as GitBook's document has them.
package grantshttp

import (
	"context"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/grants"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/users/usershttp"
)

// UserContentPermission is a user's role on content.
type UserContentPermission struct {
	Permission string         `json:"permission" enum:"admin,create,review,edit,comment,read"`
	User       usershttp.User `json:"user"`
}

// UserContentReach is a user who reaches content: their highest role and
// every source of it (a Galley addition to GitBook's shape).
type UserContentReach struct {
	UserContentPermission
	Sources []PermissionSource `json:"sources" doc:"Every way the user reaches the content, each with the role it gives"`
}

// PermissionSource is one way a user reaches content.
type PermissionSource struct {
	Kind       string `json:"kind" enum:"organization,default,user,team" doc:"organization: their organization role; default: the default level of the content or a collection above it; user: a grant to them; team: a grant to a team of theirs"`
	Permission string `json:"permission" enum:"admin,create,review,edit,comment,read"`
	Space      string `json:"space,omitempty" doc:"The space the default level or grant is set on"`
	Collection string `json:"collection,omitempty" doc:"The collection the default level or grant is set on"`
	Site       string `json:"site,omitempty" doc:"The site the grant is set on"`
	Team       string `json:"team,omitempty" doc:"The team of a team grant"`
}

// UserSitePermission is a user who reaches a site: their highest role,
// where it comes from (GitBook's shape), and every source of it (a
// Galley addition).
type UserSitePermission struct {
	Permission string             `json:"permission" enum:"admin,create,review,edit,comment,read"`
	User       usershttp.User     `json:"user"`
	Origin     SitePermissionFrom `json:"origin"`
	Disabled   bool               `json:"disabled" doc:"Always false: disabled members reach nothing and are not listed"`
	LastSeenAt *time.Time         `json:"lastSeenAt,omitempty"`
	Sources    []PermissionSource `json:"sources" doc:"Every way the user reaches the site, each with the role it gives"`
}

// SitePermissionFrom is the origin of a user's role on a site: their
// organization role (type organization), or a grant on the site (type
// site, reason member or team).
type SitePermissionFrom struct {
	Type         string `json:"type" enum:"organization,site"`
	Organization string `json:"organization,omitempty" doc:"The organization (type organization)"`
	Site         string `json:"site,omitempty" doc:"The site (type site)"`
	Reason       string `json:"reason,omitempty" enum:"member,team" doc:"A grant to the user (member) or to a team of theirs (team); type site"`
	Team         string `json:"team,omitempty" doc:"The team of a team grant"`
}

// TeamContentPermission is a team's role on content.
type TeamContentPermission struct {
	Permission string                    `json:"permission" enum:"admin,create,review,edit,comment,read"`
	Team       orgshttp.OrganizationTeam `json:"team"`
}

// The paths of the operations: the content's (SpacePath, CollectionPath)
// and the grantee's (UserPath, TeamPath).
type (
	SpacePath struct {
		SpaceID string `path:"spaceId" maxLength:"64"`
	}
	SitePath struct {
		OrganizationID string `path:"organizationId" maxLength:"64"`
		SiteID         string `path:"siteId" maxLength:"64"`
	}
	CollectionPath struct {
		CollectionID string `path:"collectionId" maxLength:"64"`
	}
	UserPath struct {
		UserID string `path:"userId" maxLength:"64"`
	}
	TeamPath struct {
		TeamID string `path:"teamId" maxLength:"64"`
	}
)

func (p SpacePath) content() grants.Content {
	return grants.Content{Kind: model.KindSpace, ID: p.SpaceID}
}
func (p CollectionPath) content() grants.Content {
	return grants.Content{Kind: model.KindCollection, ID: p.CollectionID}
}
func (p SitePath) content() grants.Content {
	return grants.Content{Kind: model.KindSite, ID: p.SiteID, OrgID: p.OrganizationID}
}
func (p UserPath) principal() grants.Principal {
	return grants.Principal{Kind: model.PrincipalUser, ID: p.UserID}
}
func (p TeamPath) principal() grants.Principal {
	return grants.Principal{Kind: model.PrincipalTeam, ID: p.TeamID}
}

// InviteBody invites users and teams with a role.
type InviteBody struct {
	Body struct {
		Role  *string  `json:"role" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"The role to give (null, a guest's, gives nothing: refused)"`
		Users []ids.ID `json:"users,omitempty" nullable:"false" maxItems:"100" doc:"Members to invite, by id"`
		Teams []ids.ID `json:"teams,omitempty" nullable:"false" maxItems:"100" doc:"Teams to invite, by id"`
	}
}

// RoleBody sets a grant's role.
type RoleBody struct {
	Body struct {
		Role *string `json:"role" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"The new role (null is refused: remove the grant instead)"`
	}
}

// AggregateParams filter the users who reach content.
type AggregateParams struct {
	httpapi.ListParams
	Role string `query:"role" enum:"admin,create,review,edit,comment,read" doc:"Only users whose highest role is this one"`
}

// SiteAggregateParams filter and order the users who reach a site.
type SiteAggregateParams struct {
	httpapi.ListParams
	Order  string `query:"order" enum:"asc,desc" default:"desc"`
	Role   string `query:"role" enum:"admin,create,review,edit,comment,read,guest" doc:"Only users whose highest role is this one (guest: the organization's guests, who reach the site through grants only)"`
	Search string `query:"search" maxLength:"256" doc:"Only users whose display name or email contains this, ignoring case"`
	Sort   string `query:"sort" enum:"joinedAt,lastSeenAt,name" default:"joinedAt" doc:"lastSeenAt: members never seen come last in the default (descending) order"`
	Team   string `query:"team" maxLength:"64" doc:"Only members of this team"`
}

type (
	onContent interface{ content() grants.Content }
	onGrant   interface {
		onContent
		principal() grants.Principal
	}
	onList interface {
		onContent
		Request() paging.Request
	}
	onAgg interface {
		onList
		filter() grants.AggregateFilter
	}
	onInvite interface {
		onContent
		invite() (model.Role, []string, []string)
	}
	onNewRole interface {
		onGrant
		newRole() model.Role
	}
	spaceList struct {
		SpacePath
		httpapi.ListParams
	}
	spaceAgg struct {
		SpacePath
		AggregateParams
	}
	spaceInv struct {
		SpacePath
		InviteBody
	}
	spaceUser struct {
		SpacePath
		UserPath
	}
	spaceTeam struct {
		SpacePath
		TeamPath
	}
	spaceUserR struct {
		SpacePath
		UserPath
		RoleBody
	}
	spaceTeamR struct {
		SpacePath
		TeamPath
		RoleBody
	}
	colList struct {
		CollectionPath
		httpapi.ListParams
	}
	colAgg struct {
		CollectionPath
		AggregateParams
	}
	colInv struct {
		CollectionPath
		InviteBody
	}
	colUser struct {
		CollectionPath
		UserPath
	}
	colTeam struct {
		CollectionPath
		TeamPath
	}
	colUserR struct {
		CollectionPath
		UserPath
		RoleBody
	}
	colTeamR struct {
		CollectionPath
		TeamPath
		RoleBody
	}
	siteList struct {
		SitePath
		httpapi.ListParams
	}
	siteAgg struct {
		SitePath
		SiteAggregateParams
	}
	siteInv struct {
		SitePath
		InviteBody
	}
	siteUser struct {
		SitePath
		UserPath
	}
	siteTeam struct {
		SitePath
		TeamPath
	}
	siteUserR struct {
		SitePath
		UserPath
		RoleBody
	}
	siteTeamR struct {
		SitePath
		TeamPath
		RoleBody
	}
)

func (p AggregateParams) filter() grants.AggregateFilter { return grants.AggregateFilter{Role: p.Role} }

func (p SiteAggregateParams) filter() grants.AggregateFilter {
	sort := p.Sort
	if sort == "" {
		sort = orgs.SortJoinedAt
	}
	return grants.AggregateFilter{Role: p.Role, Search: p.Search, Team: p.Team, Sort: sort, Desc: p.Order != orgs.OrderAsc}
}

func (b InviteBody) invite() (model.Role, []string, []string) {
	return roleOf(b.Body.Role), ids.Strings(b.Body.Users), ids.Strings(b.Body.Teams)
}

func (b RoleBody) newRole() model.Role { return roleOf(b.Body.Role) }

func roleOf(p *string) model.Role {
	if p == nil {
		return model.RoleGuest
	}
	return model.Role(*p)
}

// Register adds the permissions operations of spaces, collections and
// sites.
func Register(api *httpapi.API, s *grants.Service) {
	const space, col, site = "/v1/spaces/{spaceId}", "/v1/collections/{collectionId}", "/v1/orgs/{organizationId}/sites/{siteId}"
	register[spaceInv, spaceList, spaceUserR, spaceTeamR, spaceUser, spaceTeam](api, s, "Space", space, "Space permissions")
	aggregate[spaceAgg](api, s, "Space", space, "Space permissions", contentReach)
	register[colInv, colList, colUserR, colTeamR, colUser, colTeam](api, s, "Collection", col, "Collection permissions")
	aggregate[colAgg](api, s, "Collection", col, "Collection permissions", contentReach)
	register[siteInv, siteList, siteUserR, siteTeamR, siteUser, siteTeam](api, s, "Site", site, "Site permissions")
	aggregate[siteAgg](api, s, "Site", site, "Site permissions", siteReach)
}

// lowerKind names a kind in summaries.
var lowerKind = map[string]string{"Space": "space", "Collection": "collection", "Site": "site"}

// aggregate adds the aggregate read of one kind under base, answering
// each user as view renders them.
func aggregate[Agg onAgg, T any](api *httpapi.API, s *grants.Service, kind, base, tag string, view func(context.Context, grants.Reach) T) {
	httpapi.Register(api, httpapi.Op{ID: "listPermissionsAggregateIn" + kind, Needs: access.Role(access.AdminContent), Method: http.MethodGet, Path: base + "/permissions/aggregate", Tag: tag,
		Summary: "List every user who reaches a " + lowerKind[kind] + ", once, with their highest role and its sources"},
		func(ctx context.Context, in *Agg) (*httpapi.Out[httpapi.List[T]], error) {
			return httpapi.AnswerPage(func(r grants.Reach) T { return view(ctx, r) })(s.Aggregate(ctx, (*in).content(), (*in).filter(), (*in).Request()))
		})
}

func contentReach(ctx context.Context, r grants.Reach) UserContentReach {
	return UserContentReach{UserContentPermission: UserContentPermission{Permission: string(r.Level), User: usershttp.View(ctx, r.User.User)}, Sources: sources(r.Sources)}
}

func siteReach(ctx context.Context, r grants.Reach) UserSitePermission {
	o := r.Origin()
	from := SitePermissionFrom{Type: "organization", Organization: r.User.Member.OrgID}
	if o.Kind == access.SourceUser || o.Kind == access.SourceTeam {
		from = SitePermissionFrom{Type: "site", Site: o.ContentID, Reason: map[string]string{access.SourceUser: "member", access.SourceTeam: "team"}[o.Kind], Team: o.TeamID}
	}
	return UserSitePermission{Permission: string(r.Level), User: usershttp.View(ctx, r.User.User), Origin: from, Disabled: r.User.Member.Disabled,
		LastSeenAt: r.User.Member.LastSeenAt, Sources: sources(r.Sources)}
}

// register adds seven of the eight operations on one kind of content
// (named as GitBook's operation ids name them) under base; aggregate adds
// the eighth.
func register[Inv onInvite, List onList, UserR, TeamR onNewRole, User, Team onGrant](api *httpapi.API, s *grants.Service, kind, base, tag string) {
	admin := access.Role(access.AdminContent)
	lower := lowerKind[kind]
	httpapi.Register(api, httpapi.Op{ID: "inviteTo" + kind, Needs: admin, Method: http.MethodPost, Path: base + "/permissions", Tag: tag,
		Status: http.StatusNoContent, Summary: "Give users and teams a role on a " + lower},
		func(ctx context.Context, in *Inv) (*struct{}, error) {
			role, users, teams := (*in).invite()
			return nil, s.Invite(ctx, (*in).content(), role, users, teams)
		})
	httpapi.Register(api, httpapi.Op{ID: "listUserPermissionsIn" + kind, Needs: admin, Method: http.MethodGet, Path: base + "/permissions/users", Tag: tag,
		Summary: "List the users granted a role on a " + lower},
		func(ctx context.Context, in *List) (*httpapi.Out[httpapi.List[UserContentPermission]], error) {
			return httpapi.AnswerPage(func(u grants.UserGrant) UserContentPermission {
				return UserContentPermission{Permission: string(u.Role), User: usershttp.View(ctx, u.User.User)}
			})(s.ListUsers(ctx, (*in).content(), (*in).Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "listTeamPermissionsIn" + kind, Needs: admin, Method: http.MethodGet, Path: base + "/permissions/teams", Tag: tag,
		Summary: "List the teams granted a role on a " + lower},
		func(ctx context.Context, in *List) (*httpapi.Out[httpapi.List[TeamContentPermission]], error) {
			return httpapi.AnswerPage(func(t grants.TeamGrant) TeamContentPermission {
				return TeamContentPermission{Permission: string(t.Role), Team: orgshttp.ViewTeam(t.Team)}
			})(s.ListTeams(ctx, (*in).content(), (*in).Request()))
		})
	for _, p := range []struct{ name, path string }{{"User", "users/{userId}"}, {"Team", "teams/{teamId}"}} {
		what := map[string]string{"User": "a user's", "Team": "a team's"}[p.name]
		op := httpapi.Op{ID: "update" + p.name + "PermissionIn" + kind, Needs: admin, Method: http.MethodPatch, Path: base + "/permissions/" + p.path, Tag: tag,
			Status: http.StatusNoContent, Summary: "Change " + what + " role on a " + lower}
		del := httpapi.Op{ID: "remove" + p.name + "From" + kind, Needs: admin, Method: http.MethodDelete, Path: base + "/permissions/" + p.path, Tag: tag,
			Status: http.StatusResetContent, Summary: "Take " + what + " role on a " + lower + " away (205; 204 when there was none)", Also: httpapi.NothingToRemove("permission")}
		if p.name == "User" {
			httpapi.Register(api, op, update[UserR](s))
			httpapi.Register(api, del, remove[User](s))
		} else {
			httpapi.Register(api, op, update[TeamR](s))
			httpapi.Register(api, del, remove[Team](s))
		}
	}
}

func update[I onNewRole](s *grants.Service) func(context.Context, *I) (*struct{}, error) {
	return func(ctx context.Context, in *I) (*struct{}, error) {
		return nil, s.Update(ctx, (*in).content(), (*in).principal(), (*in).newRole())
	}
}

func remove[I onGrant](s *grants.Service) func(context.Context, *I) (*httpapi.RemovedOut, error) {
	return func(ctx context.Context, in *I) (*httpapi.RemovedOut, error) {
		return httpapi.Removed(s.Remove(ctx, (*in).content(), (*in).principal()))
	}
}

// sources renders the sources of a user's level.
func sources(ss []access.Source) []PermissionSource {
	out := make([]PermissionSource, len(ss))
	for i, s := range ss {
		p := PermissionSource{Kind: s.Kind, Permission: string(s.Role), Team: s.TeamID}
		switch s.ContentKind {
		case model.KindSpace:
			p.Space = s.ContentID
		case model.KindCollection:
			p.Collection = s.ContentID
		case model.KindSite:
			p.Site = s.ContentID
		}
		out[i] = p
	}
	return out
}
