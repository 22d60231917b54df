package access

import (
	"context"
	"fmt"
	"slices"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// Source kinds: what gives a member a level on content.
const (
	// SourceOrganization: their organization role (an admin's, or the
	// role every inheriting level comes down to).
	SourceOrganization = "organization"
	// SourceDefault: the default level of the content or of a collection
	// above it.
	SourceDefault = "default"
	// SourceUser: a grant to the member themself.
	SourceUser = "user"
	// SourceTeam: a grant to a team of theirs.
	SourceTeam = "team"
)

// Source is one way a member reaches content, with the role it gives.
type Source struct {
	Kind string
	// ContentKind and ContentID name where a default level or a grant is
	// set: the content or a collection above it ("" for the organization).
	ContentKind, ContentID string
	// TeamID is the team of a SourceTeam grant.
	TeamID string
	Role   model.Role
}

// Reach is a member's level on content and every source of it.
type Reach struct {
	Member  model.Member
	Level   model.Role
	Sources []Source
}

// Reach computes, for every member given, their level on n and its
// sources, as Viewer.Level decides it (docs/permissions.md), leaving out
// those with no level (disabled members, guests without grants, members a
// guest default level shuts out). It reads the collections above n and
// the grants on each node of the walk once, consistently, whatever the
// number of members; a member's teams are those their record names.
func (a *Authorizer) Reach(ctx context.Context, n Node, members []model.Member) ([]Reach, error) {
	v := &Viewer{a: a, cols: map[string]model.Collection{}}
	walk := []Node{n}
	for cur := n; cur.Parent != ""; {
		if len(walk) > maxDepth {
			return nil, fmt.Errorf("collections nested deeper than %d above %s %s", maxDepth, n.Kind, n.ID)
		}
		c, err := v.collection(ctx, cur.Parent)
		if apperr.Is(err, apperr.NotFound) || (err == nil && c.OrgID != n.OrgID) {
			break
		}
		if err != nil {
			return nil, err
		}
		cur = CollectionNode(c)
		walk = append(walk, cur)
	}
	grants := make([][]model.Grant, len(walk))
	for i, w := range walk {
		gs, err := a.GrantsOn(ctx, w.Kind, w.ID)
		if err != nil {
			return nil, err
		}
		grants[i] = gs
	}
	// The default level members start from, and where it is set.
	var base *Source
	for _, w := range walk {
		if w.DefaultLevel != model.LevelInherit {
			base = &Source{Kind: SourceDefault, ContentKind: w.Kind, ContentID: w.ID, Role: model.Role(w.DefaultLevel)}
			break
		}
	}
	out := []Reach{}
	for _, m := range members {
		if m.Disabled || m.OrgID != n.OrgID {
			continue
		}
		r := Reach{Member: m}
		switch {
		case m.Role == model.RoleAdmin:
			r.Sources = append(r.Sources, Source{Kind: SourceOrganization, Role: m.Role})
		case m.Role == model.RoleGuest:
		case base == nil:
			r.Sources = append(r.Sources, Source{Kind: SourceOrganization, Role: m.Role})
		case base.Role.Valid() && base.Role != model.RoleGuest:
			r.Sources = append(r.Sources, *base)
		}
		for i, w := range walk {
			for _, g := range grants[i] {
				switch {
				case g.PrincipalKind == model.PrincipalUser && g.PrincipalID == m.UserID:
					r.Sources = append(r.Sources, Source{Kind: SourceUser, ContentKind: w.Kind, ContentID: w.ID, Role: g.Role})
				case g.PrincipalKind == model.PrincipalTeam && slices.Contains(m.TeamIDs, g.PrincipalID):
					r.Sources = append(r.Sources, Source{Kind: SourceTeam, ContentKind: w.Kind, ContentID: w.ID, TeamID: g.PrincipalID, Role: g.Role})
				}
			}
		}
		for _, s := range r.Sources {
			if s.Role.AtLeast(r.Level) {
				r.Level = s.Role
			}
		}
		if m.Role == model.RoleAdmin {
			r.Level = model.RoleAdmin
		}
		if r.Level == model.RoleGuest {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}
