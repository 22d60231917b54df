package scim

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// groupResource renders a team with its members (nil members: left out,
// as excludedAttributes=members asks).
func (s *Service) groupResource(ctx context.Context, sc Scope, p *orgs.Provisioner, t model.Team, rec *model.SCIMGroup, withMembers bool) (Group, error) {
	g := Group{Schemas: []string{GroupSchema}, ID: t.ID, DisplayName: t.Title, Members: []Ref{},
		Meta: Meta{ResourceType: "Group", Created: t.CreatedAt, LastModified: t.CreatedAt, Location: sc.Base + "/Groups/" + t.ID}}
	if rec != nil {
		g.ExternalID = rec.ExternalID
		g.Meta.LastModified = rec.UpdatedAt
	}
	if !withMembers {
		g.Members = nil
		return g, nil
	}
	uids, err := p.TeamMembers(ctx, t.ID)
	if err != nil {
		return Group{}, err
	}
	mus, err := orgs.ReadMembersWithUsers(ctx, s.d.Store, sc.OrgID, uids)
	if err != nil {
		return Group{}, err
	}
	for _, mu := range mus {
		g.Members = append(g.Members, Ref{Value: mu.User.ID, Ref: sc.Base + "/Users/" + mu.User.ID, Display: mu.User.DisplayName, Type: "User"})
	}
	return g, nil
}

// scimGroups reads what SCIM keeps of the organization's teams, by team id.
func (s *Service) scimGroups(ctx context.Context, orgID string) (map[string]model.SCIMGroup, error) {
	return keptAll(ctx, s.d.Store, orgID, keys.SCIMGroupPrefix, func(r model.SCIMGroup) string { return r.TeamID })
}

// ListGroups lists the organization's teams as Groups, filtered by
// `displayName eq`, `externalId eq` or `id eq`, by team id; withMembers
// false leaves members out (excludedAttributes=members).
func (s *Service) ListGroups(ctx context.Context, sc Scope, filterQ string, pg Page, withMembers bool) (ListResponse[Group], error) {
	f, err := parseFilter(filterQ, "displayname", "externalid", "id")
	if err != nil {
		return ListResponse[Group]{}, err
	}
	p := s.provisioner(sc)
	ts, err := p.Teams(ctx)
	if err != nil {
		return ListResponse[Group]{}, err
	}
	recs, err := s.scimGroups(ctx, sc.OrgID)
	if err != nil {
		return ListResponse[Group]{}, err
	}
	var kept []model.Team
	for _, t := range ts {
		r := recs[t.ID]
		if f != nil && !strings.EqualFold(map[string]string{"displayname": t.Title, "externalid": r.ExternalID, "id": t.ID}[f.attr], f.value) {
			continue
		}
		kept = append(kept, t)
	}
	from, to := pg.window(len(kept))
	out := list(make([]Group, len(kept)), pg)
	out.Resources = out.Resources[:0]
	for _, t := range kept[from:to] {
		var rec *model.SCIMGroup
		if r, ok := recs[t.ID]; ok {
			rec = &r
		}
		g, err := s.groupResource(ctx, sc, p, t, rec, withMembers)
		if err != nil {
			return ListResponse[Group]{}, err
		}
		out.Resources = append(out.Resources, g)
	}
	return out, nil
}

// GetGroup returns one team as a Group.
func (s *Service) GetGroup(ctx context.Context, sc Scope, teamID string, withMembers bool) (Group, error) {
	p := s.provisioner(sc)
	t, err := p.Team(ctx, teamID)
	if apperr.Is(err, apperr.NotFound) {
		return Group{}, apperr.NotFoundf("group %s not found", teamID)
	}
	if err != nil {
		return Group{}, err
	}
	rec, _, err := kept[model.SCIMGroup](ctx, s.d.Store, keys.SCIMGroup(sc.OrgID, teamID))
	if err != nil {
		return Group{}, err
	}
	return s.groupResource(ctx, sc, p, t, rec, withMembers)
}

func memberIDs(in groupInput) []string {
	var out []string
	for _, m := range in.Members {
		if m.Value != "" && !slices.Contains(out, m.Value) {
			out = append(out, m.Value)
		}
	}
	return out
}

// CreateGroup makes a team of the Group's members (members of the
// organization, else invalidValue).
func (s *Service) CreateGroup(ctx context.Context, sc Scope, body []byte) (Group, error) {
	var in groupInput
	if err := decode(body, &in); err != nil {
		return Group{}, err
	}
	t, err := s.provisioner(sc).CreateTeam(ctx, in.DisplayName, memberIDs(in), func(teamID string) []store.Op {
		return []store.Op{s.groupRecord(sc, teamID, in)}
	})
	if err != nil {
		return Group{}, asInvalidValue(err)
	}
	return s.GetGroup(ctx, sc, t.ID, true)
}

// asInvalidValue gives the orgs family's Invalid errors SCIM's keyword.
func asInvalidValue(err error) error {
	if apperr.Is(err, apperr.Invalid) && ScimType(err) == "" {
		return &Error{err: err, ScimType: "invalidValue"}
	}
	return err
}

// groupRecord is the write of what SCIM keeps of a team given as in
// (replaced whole, as a PUT does: no externalId clears it).
func (s *Service) groupRecord(sc Scope, teamID string, in groupInput) store.Op {
	rec := model.SCIMGroup{OrgID: sc.OrgID, TeamID: teamID, UpdatedAt: s.d.Clock()}
	if in.ExternalID != nil {
		rec.ExternalID = *in.ExternalID
	}
	return store.Put(records.Item(keys.SCIMGroup(sc.OrgID, teamID), rec, 1), store.Always)
}

// ReplaceGroup replaces a Group (PUT): its title, its members (added and
// removed to match), its externalId.
func (s *Service) ReplaceGroup(ctx context.Context, sc Scope, teamID string, body []byte) (Group, error) {
	var in groupInput
	if err := decode(body, &in); err != nil {
		return Group{}, err
	}
	return s.replaceGroup(ctx, sc, teamID, in)
}

func (s *Service) replaceGroup(ctx context.Context, sc Scope, teamID string, in groupInput) (Group, error) {
	cur, err := s.GetGroup(ctx, sc, teamID, true)
	if err != nil {
		return Group{}, err
	}
	// What SCIM keeps goes in the first change's transaction (the rename,
	// else the members' audit event), alone when nothing else changes.
	p := s.provisioner(sc)
	rec := []store.Op{s.groupRecord(sc, teamID, in)}
	if in.DisplayName != cur.DisplayName {
		if _, err := p.RenameTeam(ctx, teamID, in.DisplayName, rec...); err != nil {
			return Group{}, asInvalidValue(err)
		}
		rec = nil
	}
	want := memberIDs(in)
	var have, add, remove []string
	for _, m := range cur.Members {
		have = append(have, m.Value)
		if !slices.Contains(want, m.Value) {
			remove = append(remove, m.Value)
		}
	}
	for _, id := range want {
		if !slices.Contains(have, id) {
			add = append(add, id)
		}
	}
	changed, err := p.ChangeTeamMembers(ctx, teamID, add, remove, "members", rec...)
	if err != nil {
		return Group{}, asInvalidValue(err)
	}
	if !changed && rec != nil {
		if err := s.d.Store.Write(ctx, rec...); err != nil {
			return Group{}, fmt.Errorf("write SCIM group: %w", err)
		}
	}
	return s.GetGroup(ctx, sc, teamID, true)
}

// PatchGroup applies a PATCH to a Group: Okta's and Entra ID's member
// additions and removals, renames, externalId.
func (s *Service) PatchGroup(ctx context.Context, sc Scope, teamID string, body []byte) (Group, error) {
	return patched(func() (Group, error) { return s.GetGroup(ctx, sc, teamID, true) }, body,
		func(in groupInput) (Group, error) { return s.replaceGroup(ctx, sc, teamID, in) })
}

// DeleteGroup removes a team (its members stay members of the
// organization) and, in the same transaction, what SCIM kept of it.
func (s *Service) DeleteGroup(ctx context.Context, sc Scope, teamID string) error {
	k := keys.SCIMGroup(sc.OrgID, teamID)
	if err := s.provisioner(sc).DeleteTeam(ctx, teamID, store.Delete(k.PK, k.SK, store.Always)); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return apperr.NotFoundf("group %s not found", teamID)
		}
		return err
	}
	return nil
}
