package access_test

import (
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// ViewerOn decides as Viewer does, for every caller and every node of the
// level tests, whatever the nodes' lists of ancestors say.
func TestViewerOnDecidesAsViewer(t *testing.T) {
	w := seedLevels(t)
	ctx, st := w.k.Ctx, w.k.Deps.Store
	// cid's membership counts the team the seed put them in, as the teams
	// service keeps it.
	m, mv, err := records.Get[model.Member](ctx, st, keys.Member(w.org, w.users["cid"]))
	if err != nil {
		t.Fatal(err)
	}
	m.Teams = 1
	if err := st.Write(ctx, store.PutIfVersion(records.Item(keys.Member(w.org, m.UserID), m, mv+1), mv)); err != nil {
		t.Fatal(err)
	}
	var nodes []access.Node
	for _, id := range []string{"s-capped", "s-raised", "s-private", "s-top", "s-granted"} {
		sp, _, err := records.Get[model.Space](ctx, st, keys.Space(id))
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, access.SpaceNode(sp))
	}
	for _, id := range []string{"top", "capped", "under-capped", "raised", "private"} {
		c, _, err := records.Get[model.Collection](ctx, st, keys.Collection(id))
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, access.CollectionNode(c))
	}
	hints := map[string]func(access.Node) []string{
		"none":  func(access.Node) []string { return nil },
		"right": rightHint,
		"wrong": func(access.Node) []string { return []string{"raised", "private", "top", "nope"} },
		"loop":  func(n access.Node) []string { return []string{n.ID, n.Parent, n.Parent, n.ID, n.Parent} },
		"short": func(n access.Node) []string {
			if n.Parent == "" {
				return nil
			}
			return []string{"capped", n.Parent}
		},
	}
	for name, uid := range w.users {
		c := access.Caller{UserID: uid}
		for hname, hint := range hints {
			for _, n := range nodes {
				n.Ancestors = hint(n)
				want, werr := level(t, w, c, n, false)
				got, gerr := level(t, w, c, n, true)
				if got != want || apperr.KindOf(gerr) != apperr.KindOf(werr) {
					t.Errorf("%s on %s %s (hint %s): ViewerOn %q (%v), Viewer %q (%v)", name, n.Kind, n.ID, hname, got, gerr, want, werr)
				}
			}
		}
	}
	// A caller whose token belongs to another organization is an outsider.
	if _, err := w.k.Deps.Authz.ViewerOn(ctx, access.Caller{UserID: w.users["ada"], OrgID: "other"}, nodes[0]); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("scoped token elsewhere: %v", err)
	}
}

func rightHint(n access.Node) []string {
	up := map[string]string{"top": "", "capped": "top", "under-capped": "capped", "raised": "capped", "private": "top"}
	var h []string
	for p := n.Parent; p != ""; p = up[p] {
		h = append([]string{p}, h...)
	}
	return h
}

func level(t *testing.T, w *levelWorld, c access.Caller, n access.Node, on bool) (model.Role, error) {
	t.Helper()
	var v *access.Viewer
	var err error
	if on {
		v, err = w.k.Deps.Authz.ViewerOn(w.k.Ctx, c, n)
	} else {
		v, err = w.k.Deps.Authz.Viewer(w.k.Ctx, c, n.OrgID)
	}
	if err != nil {
		return "", err
	}
	return v.Level(w.k.Ctx, n)
}
