package orgs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// teamBatch is the most memberships changed in one transaction: each takes
// two operations (the membership and a counter) besides the one for the
// other side's counter, within store.MaxTransactionOps.
const teamBatch = (store.MaxTransactionOps - 1) / 2

// maxTeamMembers bounds the members given when creating a team.
const maxTeamMembers = 1000

// TeamForCaller is a team as one member sees it.
type TeamForCaller struct {
	Team model.Team
	// Viewer is the caller's role in the organization.
	Viewer model.Role
}

// Permissions are the caller's permissions on the team.
func (t TeamForCaller) Permissions() access.TeamPermissions { return access.ForTeam(t.Viewer) }

// ListTeams lists an organization's teams by id (creation order), to members
// who may list teams. owner, when set, keeps the teams that member can
// manage: all of them for an admin, those they own otherwise, none for a
// non-member. title keeps teams whose title contains it, ignoring case.
// Teams are read whole and filtered in memory (an organization has few).
func (s *Service) ListTeams(ctx context.Context, orgID, owner, title string, r paging.Request) (paging.Page[TeamForCaller], error) {
	cm, err := s.d.Authz.RequireOrg(ctx, orgID, access.ListTeams)
	if err != nil {
		return paging.Page[TeamForCaller]{}, err
	}
	sc := paging.Scope("listTeams", keys.OrgPartition(orgID), "owner="+owner, "title="+title)
	if _, err := s.d.Cursors.After(sc, r.Cursor); err != nil {
		return paging.Page[TeamForCaller]{}, err
	}
	var manages func(model.Team) bool
	if owner != "" {
		om, _, err := s.getMember(ctx, orgID, owner)
		switch {
		case apperr.Is(err, apperr.NotFound) || (err == nil && om.Disabled):
			return paging.Page[TeamForCaller]{Items: []TeamForCaller{}}, nil
		case err != nil:
			return paging.Page[TeamForCaller]{}, err
		case !isActiveAdmin(om):
			tms, err := s.teamMembershipsOf(ctx, orgID, owner)
			if err != nil {
				return paging.Page[TeamForCaller]{}, err
			}
			owned := map[string]bool{}
			for _, tm := range tms {
				if tm.Role == model.TeamOwner {
					owned[tm.TeamID] = true
				}
			}
			manages = func(t model.Team) bool { return owned[t.ID] }
		}
	}
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.TeamPrefix})
	if err != nil {
		return paging.Page[TeamForCaller]{}, fmt.Errorf("list teams: %w", err)
	}
	ts, err := records.DecodeAll[model.Team](items)
	if err != nil {
		return paging.Page[TeamForCaller]{}, err
	}
	q := strings.ToLower(title)
	list := []TeamForCaller{}
	for _, t := range ts {
		if (manages == nil || manages(t)) && strings.Contains(strings.ToLower(t.Title), q) {
			list = append(list, TeamForCaller{Team: t, Viewer: cm.Role()})
		}
	}
	key := func(t TeamForCaller) string { return t.Team.ID }
	sortBy(list, key, false)
	return paging.Window(s.d.Cursors, sc, r, list, key, false)
}

// CreateTeam makes a team (admins only) holding the given members, who must
// be active members of the organization (else Invalid naming members[i]).
// The team and its first teamBatch members are written in one transaction,
// further members in further transactions, each keeping the counters exact.
func (s *Service) CreateTeam(ctx context.Context, orgID, title string, members []string) (TeamForCaller, error) {
	cm, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageTeams)
	if err != nil {
		return TeamForCaller{}, err
	}
	t, err := s.createTeam(ctx, orgID, title, members, nil, nil)
	if err != nil {
		return TeamForCaller{}, err
	}
	return TeamForCaller{Team: t, Viewer: cm.Role()}, nil
}

// createTeam is CreateTeam once authorized; actor, when set, made the
// change (a request without a caller: SCIM), and also, when set, gives
// operations written in the team's creation transaction, with its audit
// event (SCIM's own record of the team).
func (s *Service) createTeam(ctx context.Context, orgID, title string, members []string, actor *model.AuditRef, also func(teamID string) []store.Op) (model.Team, error) {
	title, err := checkTeamTitle(title)
	if err != nil {
		return model.Team{}, err
	}
	if len(members) > maxTeamMembers {
		return model.Team{}, apperr.Field("members", "at most %d members", maxTeamMembers)
	}
	var userIDs []string
	seen := map[string]bool{}
	for i, id := range members {
		m, _, err := s.getMember(ctx, orgID, id)
		if apperr.Is(err, apperr.NotFound) || (err == nil && m.Disabled) {
			return model.Team{}, apperr.Field(fmt.Sprintf("members[%d]", i), "%q is not a member of this organization", id)
		}
		if err != nil {
			return model.Team{}, err
		}
		if !seen[id] {
			seen[id] = true
			userIDs = append(userIDs, id)
		}
	}
	now := s.d.Clock()
	t := model.Team{OrgID: orgID, ID: ids.New(now), Title: title, CreatedAt: now}
	ch := change(orgID, model.AuditTeamCreated, targetTeam, t.ID, map[string]any{"title": title, "members": userIDs})
	ch.Actor = actor
	ops := []store.Op{s.audit.Op(ctx, ch)}
	if also != nil {
		ops = append(ops, also(t.ID)...)
	}
	// The first batch leaves room for the team and ops (teamBatch when
	// ops is the audit event alone).
	first := userIDs[:min((store.MaxTransactionOps-1-len(ops))/2, len(userIDs))]
	if t, err = s.addTeamMembers(ctx, orgID, t.ID, &t, first, model.TeamMember, ops...); err != nil {
		return model.Team{}, err
	}
	for batch := range slices.Chunk(userIDs[len(first):], teamBatch) {
		if t, err = s.addTeamMembers(ctx, orgID, t.ID, nil, batch, model.TeamMember); err != nil {
			return model.Team{}, err
		}
	}
	return t, nil
}

// GetTeam returns a team to members who may list teams.
func (s *Service) GetTeam(ctx context.Context, orgID, teamID string) (TeamForCaller, error) {
	cm, err := s.d.Authz.RequireOrg(ctx, orgID, access.ListTeams)
	if err != nil {
		return TeamForCaller{}, err
	}
	t, _, err := s.getTeam(ctx, orgID, teamID)
	if err != nil {
		return TeamForCaller{}, err
	}
	return TeamForCaller{Team: t, Viewer: cm.Role()}, nil
}

// RenameTeam sets a team's title (admins only).
func (s *Service) RenameTeam(ctx context.Context, orgID, teamID, title string) (TeamForCaller, error) {
	cm, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageTeams)
	if err != nil {
		return TeamForCaller{}, err
	}
	t, err := s.renameTeam(ctx, orgID, teamID, title, nil)
	if err != nil {
		return TeamForCaller{}, err
	}
	return TeamForCaller{Team: t, Viewer: cm.Role()}, nil
}

// renameTeam is RenameTeam once authorized; actor as createTeam's, also
// written in its transaction.
func (s *Service) renameTeam(ctx context.Context, orgID, teamID, title string, actor *model.AuditRef, also ...store.Op) (model.Team, error) {
	title, err := checkTeamTitle(title)
	if err != nil {
		return model.Team{}, err
	}
	ch := change(orgID, model.AuditTeamUpdated, targetTeam, teamID, map[string]any{"title": title})
	ch.Actor = actor
	t, err := records.Update(ctx, s.d.Store, keys.Team(orgID, teamID), nil, func(t *model.Team) ([]store.Op, error) {
		t.Title = title
		return append([]store.Op{s.audit.Op(ctx, ch)}, also...), nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return model.Team{}, apperr.NotFoundf("team %s not found", teamID)
	}
	if err != nil {
		return model.Team{}, fmt.Errorf("rename team: %w", err)
	}
	return t, nil
}

// DeleteTeam removes a team and its memberships (admins only), keeping the
// members' team counters: memberships go in batches, the team record last.
func (s *Service) DeleteTeam(ctx context.Context, orgID, teamID string) error {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageTeams); err != nil {
		return err
	}
	return s.deleteTeam(ctx, orgID, teamID, nil)
}

// deleteTeam is DeleteTeam once authorized; actor as createTeam's, also
// written with the team's deletion.
func (s *Service) deleteTeam(ctx context.Context, orgID, teamID string, actor *model.AuditRef, also ...store.Op) error {
	return store.Retry(ctx, func() error {
		items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.TeamMembersPrefix(teamID)})
		if err != nil {
			return fmt.Errorf("list team members: %w", err)
		}
		tms, err := records.DecodeAll[model.TeamMembership](items)
		if err != nil {
			return err
		}
		for batch := range slices.Chunk(tms, teamBatch) {
			userIDs := make([]string, len(batch))
			for i, tm := range batch {
				userIDs[i] = tm.UserID
			}
			if err := s.removeTeamMembers(ctx, orgID, teamID, userIDs); err != nil {
				return err
			}
		}
		t, v, err := s.getTeam(ctx, orgID, teamID)
		if err != nil {
			return err
		}
		if t.Members > 0 {
			return store.ErrConflict // members were added meanwhile
		}
		k := keys.Team(orgID, teamID)
		ch := change(orgID, model.AuditTeamDeleted, targetTeam, teamID, map[string]any{"title": t.Title})
		ch.Actor = actor
		if err := s.d.Store.Write(ctx, append([]store.Op{store.DeleteIfVersion(k.PK, k.SK, v), s.audit.Op(ctx, ch)}, also...)...); err != nil {
			return fmt.Errorf("delete team: %w", err)
		}
		return nil
	})
}

// addTeamMembers puts at most teamBatch members (who must not be in the
// team yet) into a team with role (model.TeamMember or model.TeamOwner), in one transaction raising
// the team's and each member's counter. create, when set, is a new team to
// write in the same transaction; otherwise the team is read. also are
// written in the same transaction (a new team's audit event).
func (s *Service) addTeamMembers(ctx context.Context, orgID, teamID string, create *model.Team, userIDs []string, role string, also ...store.Op) (model.Team, error) {
	var t model.Team
	err := store.Retry(ctx, func() error {
		var tv int64
		if create != nil {
			t = *create
		} else {
			var err error
			if t, tv, err = s.getTeam(ctx, orgID, teamID); err != nil {
				return err
			}
		}
		now := s.d.Clock()
		var ops []store.Op
		for _, uid := range userIDs {
			m, mv, err := s.getMember(ctx, orgID, uid)
			if apperr.Is(err, apperr.NotFound) || (err == nil && m.Disabled) {
				return apperr.Field("members", "%q is no longer a member of this organization", uid)
			}
			if err != nil {
				return err
			}
			m.Teams++
			if !slices.Contains(m.TeamIDs, teamID) {
				m.TeamIDs = append(m.TeamIDs, teamID)
			}
			tm := model.TeamMembership{OrgID: orgID, TeamID: teamID, UserID: uid, Role: role, AddedAt: now}
			ops = append(ops, store.Put(teamMemberItem(tm, 1), store.IfNotExists), store.PutIfVersion(memberItem(m, mv+1), mv))
		}
		t.Members += len(userIDs)
		if create != nil {
			ops = append(ops, store.Put(records.Item(keys.Team(orgID, teamID), t, 1), store.IfNotExists))
		} else {
			ops = append(ops, store.PutIfVersion(records.Item(keys.Team(orgID, teamID), t, tv+1), tv))
		}
		ops = append(ops, also...)
		// A conflict: a member or the team changed since read.
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return fmt.Errorf("add team members: %w", err)
		}
		return nil
	})
	if err != nil {
		return model.Team{}, err
	}
	return t, nil
}

// removeTeamMembers takes at most teamBatch members out of a team in one
// transaction (unlink), lowering the team's and each member's counter.
func (s *Service) removeTeamMembers(ctx context.Context, orgID, teamID string, userIDs []string) error {
	tms := make([]model.TeamMembership, len(userIDs))
	for i, uid := range userIDs {
		tms[i] = model.TeamMembership{OrgID: orgID, TeamID: teamID, UserID: uid}
	}
	return s.unlink(ctx, orgID, tms, func() (*teamsEnd, error) { return s.teamEnd(ctx, orgID, teamID) },
		func(tm model.TeamMembership) (*teamsEnd, error) { return s.memberEnd(ctx, orgID, tm.UserID) }, "remove team members")
}

// teamsEnd is one end of team memberships, a team or a member, as read
// for a transaction: drop lowers its counter for a membership deleted,
// put is its write, guarded by the version read.
type teamsEnd struct {
	drop func(model.TeamMembership)
	put  func() store.Op
}

func (s *Service) teamEnd(ctx context.Context, orgID, teamID string) (*teamsEnd, error) {
	t, v, err := s.getTeam(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	return &teamsEnd{drop: func(model.TeamMembership) { t.Members = max(0, t.Members-1) },
		put: func() store.Op { return store.PutIfVersion(records.Item(keys.Team(orgID, teamID), t, v+1), v) }}, nil
}

func (s *Service) memberEnd(ctx context.Context, orgID, userID string) (*teamsEnd, error) {
	m, v, err := s.getMember(ctx, orgID, userID)
	if err != nil {
		return nil, err
	}
	return &teamsEnd{
		drop: func(tm model.TeamMembership) {
			m.Teams = max(0, m.Teams-1)
			m.TeamIDs = slices.DeleteFunc(m.TeamIDs, func(id string) bool { return id == tm.TeamID })
		},
		put: func() store.Op { return store.PutIfVersion(memberItem(m, v+1), v) }}, nil
}

// unlink deletes memberships that all share one end (shared: the team
// whose members are removed, or the member leaving teams), at most
// teamBatch, in one transaction, lowering the counters of both ends of
// each. The shared end must exist; an other end already gone is skipped,
// and so is a membership already gone (each is re-read from the table, so
// a stale index read cannot make a counter drift). what names the
// operation in a write's error.
func (s *Service) unlink(ctx context.Context, orgID string, tms []model.TeamMembership, shared func() (*teamsEnd, error),
	other func(model.TeamMembership) (*teamsEnd, error), what string) error {
	return store.Retry(ctx, func() error {
		one, err := shared()
		if err != nil {
			return err
		}
		var ops []store.Op
		for _, tm := range tms {
			del, err := s.teamMemberDelete(ctx, orgID, tm.TeamID, tm.UserID)
			if err != nil {
				return err
			}
			if del == nil {
				continue
			}
			ops = append(ops, *del)
			one.drop(tm)
			o, err := other(tm)
			if apperr.Is(err, apperr.NotFound) {
				continue
			}
			if err != nil {
				return err
			}
			o.drop(tm)
			ops = append(ops, o.put())
		}
		if len(ops) == 0 {
			return nil
		}
		if err := s.d.Store.Write(ctx, append(ops, one.put())...); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	})
}

// teamMemberDelete is the operation deleting a team membership as it is
// now; nil when there is none.
func (s *Service) teamMemberDelete(ctx context.Context, orgID, teamID, userID string) (*store.Op, error) {
	k := keys.TeamMember(orgID, teamID, userID)
	it, err := s.d.Store.Get(ctx, k.PK, k.SK)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read team member: %w", err)
	}
	del := store.DeleteIfVersion(k.PK, k.SK, it.Version)
	return &del, nil
}

// leaveAllTeams takes a member out of every team, at most teamBatch teams
// per transaction, lowering each team's counter and the member's.
func (s *Service) leaveAllTeams(ctx context.Context, orgID, userID string) error {
	tms, err := s.teamMembershipsOf(ctx, orgID, userID)
	if err != nil {
		return err
	}
	for batch := range slices.Chunk(tms, teamBatch) {
		if err := s.leaveTeams(ctx, orgID, userID, batch); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) leaveTeams(ctx context.Context, orgID, userID string, batch []model.TeamMembership) error {
	return s.unlink(ctx, orgID, batch, func() (*teamsEnd, error) { return s.memberEnd(ctx, orgID, userID) },
		func(tm model.TeamMembership) (*teamsEnd, error) { return s.teamEnd(ctx, orgID, tm.TeamID) }, "leave teams")
}

// checkTeamTitle trims a team title and checks its length.
func checkTeamTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	if n := utf8.RuneCountInString(title); n < 1 || n > 64 {
		return "", apperr.Field("title", "must be 1 to 64 characters")
	}
	return title, nil
}
