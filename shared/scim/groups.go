package scim

import (
	"context"
	"encoding/json"
	"errors"
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

func (s *Service) scimGroups(ctx context.Context, orgID string) (map[string]model.SCIMGroup, error) {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.SCIMGroupPrefix})
	if err != nil {
		return nil, fmt.Errorf("read SCIM groups: %w", err)
	}
	rs, err := records.DecodeAll[model.SCIMGroup](items)
	out := make(map[string]model.SCIMGroup, len(rs))
	for _, r := range rs {
		out[r.TeamID] = r
	}
	return out, err
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
	rec, _, err := records.Get[model.SCIMGroup](ctx, s.d.Store, keys.SCIMGroup(sc.OrgID, teamID))
	var recp *model.SCIMGroup
	if err == nil {
		recp = &rec
	} else if !errors.Is(err, store.ErrNotFound) {
		return Group{}, fmt.Errorf("read SCIM group: %w", err)
	}
	return s.groupResource(ctx, sc, p, t, recp, withMembers)
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
	t, err := s.provisioner(sc).CreateTeam(ctx, in.DisplayName, memberIDs(in))
	if err != nil {
		return Group{}, asInvalidValue(err)
	}
	return s.writeGroup(ctx, sc, t.ID, in)
}

// asInvalidValue gives the orgs family's Invalid errors SCIM's keyword.
func asInvalidValue(err error) error {
	if apperr.Is(err, apperr.Invalid) && ScimType(err) == "" {
		return &Error{err: err, ScimType: "invalidValue"}
	}
	return err
}

func (s *Service) writeGroup(ctx context.Context, sc Scope, teamID string, in groupInput) (Group, error) {
	rec := model.SCIMGroup{OrgID: sc.OrgID, TeamID: teamID, UpdatedAt: s.d.Clock()}
	if in.ExternalID != nil {
		rec.ExternalID = *in.ExternalID
	} else if old, _, err := records.Get[model.SCIMGroup](ctx, s.d.Store, keys.SCIMGroup(sc.OrgID, teamID)); err == nil {
		rec.ExternalID = old.ExternalID
	}
	if err := s.d.Store.Write(ctx, store.Put(records.Item(keys.SCIMGroup(sc.OrgID, teamID), rec, 1), store.Always)); err != nil {
		return Group{}, fmt.Errorf("write SCIM group: %w", err)
	}
	return s.GetGroup(ctx, sc, teamID, true)
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
	p := s.provisioner(sc)
	if in.DisplayName != cur.DisplayName {
		if _, err := p.RenameTeam(ctx, teamID, in.DisplayName); err != nil {
			return Group{}, asInvalidValue(err)
		}
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
	if err := p.ChangeTeamMembers(ctx, teamID, add, remove, "members"); err != nil {
		return Group{}, asInvalidValue(err)
	}
	return s.writeGroup(ctx, sc, teamID, in)
}

// PatchGroup applies a PATCH to a Group: Okta's and Entra ID's member
// additions and removals, renames, externalId.
func (s *Service) PatchGroup(ctx context.Context, sc Scope, teamID string, body []byte) (Group, error) {
	cur, err := s.GetGroup(ctx, sc, teamID, true)
	if err != nil {
		return Group{}, err
	}
	res := asMap(cur)
	if err := applyPatch(res, body); err != nil {
		return Group{}, err
	}
	var in groupInput
	raw, _ := json.Marshal(res)
	if err := json.Unmarshal(raw, &in); err != nil {
		return Group{}, invalidValue("the patched group is not valid: %v", err)
	}
	return s.replaceGroup(ctx, sc, teamID, in)
}

// DeleteGroup removes a team (its members stay members of the
// organization).
func (s *Service) DeleteGroup(ctx context.Context, sc Scope, teamID string) error {
	if err := s.provisioner(sc).DeleteTeam(ctx, teamID); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return apperr.NotFoundf("group %s not found", teamID)
		}
		return err
	}
	k := keys.SCIMGroup(sc.OrgID, teamID)
	if err := s.d.Store.Write(ctx, store.Delete(k.PK, k.SK, store.Always)); err != nil {
		return fmt.Errorf("delete SCIM group: %w", err)
	}
	return nil
}
