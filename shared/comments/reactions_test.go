package comments_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// reaction finds a reaction of a comment or reply answer (nil if none).
func reaction(m map[string]any, emoji string) map[string]any {
	for _, r := range m["reactions"].([]any) {
		if r := r.(map[string]any); r["emoji"] == emoji {
			return r
		}
	}
	return nil
}

// reactors lists the ids of a reaction's users, in order.
func reactors(r map[string]any) []string {
	var out []string
	for _, u := range r["users"].([]any) {
		out = append(out, u.(map[string]any)["user"].(map[string]any)["id"].(string))
	}
	return out
}

// TestReactionsCountEachUserOnce on comments and replies, on each storage
// backend.
func TestReactionsCountEachUserOnce(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		c := f.post(t, f.editor, f.comments(), say("Ship it?"))
		r := f.post(t, f.editor, f.comments()+"/"+id(c)+"/replies", say("Soon"))
		for name, path := range map[string]string{"comment": f.comments() + "/" + id(c), "reply": f.comments() + "/" + id(c) + "/replies/" + id(r)} {
			t.Run(name, func(t *testing.T) {
				put := func(token string, body map[string]any) map[string]any {
					return f.as(t, token).Expect(http.StatusOK, "PUT", path, body).Map(t)
				}
				first := put(f.commenter, map[string]any{"addedReactions": []string{"👍", "👍"}})
				up := reaction(first, "👍")
				if up == nil || up["count"] != 1.0 || strings.Join(reactors(up), " ") != f.commenterID {
					t.Fatalf("one user adding 👍 twice in one change: %v", first["reactions"])
				}
				reactedAt := up["users"].([]any)[0].(map[string]any)["reactedAt"]
				again := put(f.commenter, map[string]any{"addedReactions": []string{"👍"}})
				if up := reaction(again, "👍"); up["count"] != 1.0 || up["users"].([]any)[0].(map[string]any)["reactedAt"] != reactedAt {
					t.Fatalf("adding 👍 again: %v", again["reactions"])
				}
				both := put(f.commenter2, map[string]any{"addedReactions": []string{"👍", "🎉"}})
				if up := reaction(both, "👍"); up["count"] != 2.0 || strings.Join(reactors(up), " ") != f.commenterID+" "+f.commenter2ID {
					t.Fatalf("a second user adding 👍: %v", both["reactions"])
				}
				if party := reaction(both, "🎉"); party == nil || party["count"] != 1.0 {
					t.Fatalf("🎉: %v", both["reactions"])
				}
				for i := 0; i < 2; i++ {
					removed := put(f.commenter, map[string]any{"removedReactions": []string{"👍", "🚀"}})
					if up := reaction(removed, "👍"); up["count"] != 1.0 || strings.Join(reactors(up), " ") != f.commenter2ID {
						t.Fatalf("removing 👍 (time %d): %v", i+1, removed["reactions"])
					}
				}
				gone := put(f.commenter2, map[string]any{"removedReactions": []string{"🎉"}})
				if reaction(gone, "🎉") != nil || len(gone["reactions"].([]any)) != 1 {
					t.Fatalf("🎉 removed by its only user: %v", gone["reactions"])
				}
				if gone["editedAt"] != nil {
					t.Fatalf("reactions set editedAt: %v", gone)
				}
				res := f.as(t, f.commenter).Expect(http.StatusBadRequest, "PUT", path, map[string]any{"addedReactions": []string{"👀"}, "removedReactions": []string{"👀"}})
				if !strings.Contains(string(res.Body), "removedReactions") {
					t.Fatalf("error does not name removedReactions: %s", res.Body)
				}
				f.as(t, f.reader).Expect(http.StatusForbidden, "PUT", path, map[string]any{"addedReactions": []string{"👀"}})
				read := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)
				if len(read["reactions"].([]any)) != 1 || reaction(read, "👍")["count"] != 1.0 {
					t.Fatalf("reactions read back: %v", read["reactions"])
				}
			})
		}
	})
}
