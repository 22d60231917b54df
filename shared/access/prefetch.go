package access

import (
	"context"
	"fmt"
	"slices"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// maxTeamGrantKeys bounds the keys ViewerOn reads for team grants (teams
// times the content and its collections); beyond it, a member of many teams
// is judged from the lists of grants, as by Viewer.
const maxTeamGrantKeys = 2 * store.MaxBatchGetKeys

// ViewerOn returns the caller's viewer of n's organization, like Viewer,
// having read what deciding on n takes in as few round trips as it can:
// one batch with the membership, the collections above n (named by n's
// Ancestors hint) and the caller's grants on n and on each of them, read by
// key; then, for a member of teams, their teams and one batch of the teams'
// grants there. A hint that proves stale (a collection above moved) costs one
// more batch per wrong step, guided by each collection's own hint.
//
// The decision is the one Viewer makes: the walk up the tree follows each
// collection's Parent as read, and every grant to the caller or their teams
// on every node of the walk is read; only the way they are read changes (by
// key from the table, consistently, instead of from the lists of grants in
// an index). Content the batch did not cover is read as Viewer reads it.
func (a *Authorizer) ViewerOn(ctx context.Context, c Caller, n Node) (*Viewer, error) {
	if c.OrgID != "" && c.OrgID != n.OrgID {
		return a.Viewer(ctx, c, n.OrgID) // NotFound without a read
	}
	v := &Viewer{a: a, caller: c} // cols made when a collection is read
	org := n.OrgID
	mk := keys.Member(org, c.UserID)
	memberKey := store.ItemKey{PK: mk.PK, SK: mk.SK}
	mine := map[string]model.Role{} // the caller's grants on the nodes read
	var walked []Node               // the nodes whose grants were read, n first
	var member store.Item
	cur, grantsOf, first := n, []Node{n}, true
	for round := 0; round <= maxDepth; round++ {
		// The first node of the walk whose parent is not read yet, and a
		// guess of the collections above it.
		cur = v.climb(cur, org)
		var ids []string
		if cur.Parent != "" {
			for _, id := range guessAbove(cur) {
				if _, ok := v.cols[id]; !ok && !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
		var ks []store.ItemKey
		if first {
			ks = append(ks, memberKey)
		}
		for _, g := range grantsOf {
			ks = appendKey(ks, keys.Grant(g.Kind, g.ID, model.PrincipalUser, c.UserID))
		}
		for _, id := range ids {
			ks = appendKey(appendKey(ks, keys.Collection(id)), keys.Grant(model.KindCollection, id, model.PrincipalUser, c.UserID))
		}
		if len(ks) == 0 {
			break
		}
		items, err := batchGet(ctx, a.store, ks)
		if err != nil {
			return nil, fmt.Errorf("read membership, collections and grants: %w", err)
		}
		got := func(k store.ItemKey) store.Item {
			// A few keys, or a few dozen under a deep tree: a scan is cheaper than a map.
			if i := slices.Index(ks, k); i >= 0 {
				return items[i]
			}
			return store.Item{}
		}
		if first {
			first, member = false, got(memberKey)
			if member.PK == "" {
				break // not a member: judged below
			}
		}
		for _, g := range grantsOf {
			if err := takeGrant(mine, org, g.Kind, g.ID, got(itemKey(keys.Grant(g.Kind, g.ID, model.PrincipalUser, c.UserID)))); err != nil {
				return nil, err
			}
		}
		walked, grantsOf = append(walked, grantsOf...), nil
		for _, id := range ids {
			col := got(itemKey(keys.Collection(id)))
			if col.PK == "" {
				continue
			}
			cc, err := records.Decode[model.Collection](col)
			if err != nil {
				return nil, fmt.Errorf("read collection: %w", err)
			}
			v.remember(cc)
			if err := takeGrant(mine, org, model.KindCollection, id, got(itemKey(keys.Grant(model.KindCollection, id, model.PrincipalUser, c.UserID)))); err != nil {
				return nil, err
			}
			walked = append(walked, CollectionNode(cc))
		}
		if cur.Parent == "" {
			break
		}
		if _, ok := v.cols[cur.Parent]; !ok {
			break // the parent is gone: the walk ends there (see Level)
		}
	}
	m, err := a.membership(ctx, c, n.OrgID, member)
	if err != nil {
		return nil, err
	}
	v.m = m
	if m.Role() == model.RoleAdmin {
		return v, nil // admins are decided without grants
	}
	teams, err := v.teamGrants(ctx, walked)
	if err != nil || teams == nil {
		return v, err // without the teams' grants, Level reads the lists
	}
	for k, g := range teams {
		if g.AtLeast(mine[k]) {
			mine[k] = g
		}
	}
	v.direct = mine // every walked node has an entry, "" when nothing is granted
	return v, nil
}

// climb walks up from n through the collections v has read, to the first
// node whose parent v has not read (or the top, or the edge of orgID).
func (v *Viewer) climb(n Node, orgID string) Node {
	for depth := 0; n.Parent != "" && depth <= maxDepth; depth++ {
		c, ok := v.cols[n.Parent]
		if !ok || c.OrgID != orgID {
			return n
		}
		n = CollectionNode(c)
	}
	return n
}

// guessAbove names the collections above n to read: its hint when the hint
// ends with n's parent, else the parent alone.
func guessAbove(n Node) []string {
	h := n.Ancestors
	if len(h) == 0 || h[len(h)-1] != n.Parent || len(h) > maxDepth {
		return []string{n.Parent}
	}
	return h
}

func itemKey(k keys.Key) store.ItemKey { return store.ItemKey{PK: k.PK, SK: k.SK} }

// appendKey appends k to ks unless it is there (a corrupt hint may name a
// collection twice).
func appendKey(ks []store.ItemKey, k keys.Key) []store.ItemKey {
	if slices.Contains(ks, itemKey(k)) {
		return ks
	}
	return append(ks, itemKey(k))
}

// takeGrant records in best a grant item of orgID (the zero Item when there
// is none) on one node.
func takeGrant(best map[string]model.Role, orgID, kind, id string, it store.Item) error {
	k := kind + ":" + id
	if _, ok := best[k]; !ok {
		best[k] = ""
	}
	if it.PK == "" {
		return nil
	}
	g, err := records.Decode[model.Grant](it)
	if err != nil {
		return fmt.Errorf("read grant: %w", err)
	}
	// The lists Viewer reads are per organization; so is this.
	if g.OrgID == orgID && g.Role.AtLeast(best[k]) {
		best[k] = g.Role
	}
	return nil
}

// teamGrants reads the grants of the viewer's teams on nodes, by key: the
// best role per "<kind>:<id>". A member in no team (their record counts
// their teams, in the same transactions that add and remove them) needs no
// read. It returns nil when there are too many keys to read this way.
func (v *Viewer) teamGrants(ctx context.Context, nodes []Node) (map[string]model.Role, error) {
	best := map[string]model.Role{}
	if v.m.Member.Teams == 0 {
		return best, nil
	}
	if v.m.Member.Teams*len(nodes) > maxTeamGrantKeys {
		return nil, nil
	}
	// The member's record names every team when it holds as many ids as it
	// counts teams (model.Member.TeamIDs); else the teams are queried.
	teamIDs := v.m.Member.TeamIDs
	if len(teamIDs) != v.m.Member.Teams {
		tms, err := v.a.memberTeams(ctx, v.OrgID(), v.caller.UserID)
		if err != nil {
			return nil, err
		}
		teamIDs = make([]string, len(tms))
		for i, tm := range tms {
			teamIDs[i] = tm.TeamID
		}
	}
	if len(teamIDs)*len(nodes) > maxTeamGrantKeys {
		return nil, nil
	}
	var ks []store.ItemKey
	on := map[store.ItemKey]Node{}
	for _, teamID := range teamIDs {
		for _, n := range nodes {
			gk := itemKey(keys.Grant(n.Kind, n.ID, model.PrincipalTeam, teamID))
			if _, ok := on[gk]; !ok {
				ks, on[gk] = append(ks, gk), n
			}
		}
	}
	if len(ks) == 0 {
		return best, nil
	}
	got, err := batchGet(ctx, v.a.store, ks)
	if err != nil {
		return nil, fmt.Errorf("read grants of teams: %w", err)
	}
	for i, it := range got {
		n := on[ks[i]]
		if err := takeGrant(best, v.OrgID(), n.Kind, n.ID, it); err != nil {
			return nil, err
		}
	}
	return best, nil
}

// batchGet reads any number of distinct keys, store.MaxBatchGetKeys at a time.
func batchGet(ctx context.Context, s store.Store, ks []store.ItemKey) ([]store.Item, error) {
	if len(ks) <= store.MaxBatchGetKeys {
		return s.BatchGet(ctx, ks)
	}
	out := make([]store.Item, 0, len(ks))
	for len(ks) > 0 {
		n := min(len(ks), store.MaxBatchGetKeys)
		items, err := s.BatchGet(ctx, ks[:n])
		if err != nil {
			return nil, err
		}
		out, ks = append(out, items...), ks[n:]
	}
	return out, nil
}
