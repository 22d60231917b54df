package comments

import (
	"slices"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// react applies one user's added and removed emojis to reactions and
// returns the result (reactions itself is not changed). A user reacts with
// an emoji once: adding it again changes nothing, and so does removing one
// they did not add. An emoji left without users disappears.
func react(reactions []model.Reaction, userID string, now time.Time, added, removed []string) ([]model.Reaction, error) {
	if len(added) == 0 && len(removed) == 0 {
		return reactions, nil
	}
	for _, e := range removed {
		if slices.Contains(added, e) {
			return nil, apperr.Field("removedReactions", "%s is also in addedReactions", e)
		}
	}
	out := make([]model.Reaction, 0, len(reactions)+len(added))
	for _, r := range reactions {
		out = append(out, model.Reaction{Emoji: r.Emoji, Users: slices.Clone(r.Users)})
	}
	find := func(emoji string) int {
		return slices.IndexFunc(out, func(r model.Reaction) bool { return r.Emoji == emoji })
	}
	has := func(r model.Reaction) bool {
		return slices.ContainsFunc(r.Users, func(u model.ReactionUser) bool { return u.UserID == userID })
	}
	for _, e := range added {
		i := find(e)
		if i < 0 {
			if len(out) >= MaxEmojis {
				return nil, apperr.Field("addedReactions", "at most %d different emojis per comment", MaxEmojis)
			}
			out = append(out, model.Reaction{Emoji: e})
			i = len(out) - 1
		}
		if !has(out[i]) {
			out[i].Users = append(out[i].Users, model.ReactionUser{UserID: userID, ReactedAt: now})
		}
	}
	for _, e := range removed {
		if i := find(e); i >= 0 {
			out[i].Users = slices.DeleteFunc(out[i].Users, func(u model.ReactionUser) bool { return u.UserID == userID })
			if len(out[i].Users) == 0 {
				out = slices.Delete(out, i, i+1)
			}
		}
	}
	total := 0
	for _, r := range out {
		total += len(r.Users)
	}
	if total > MaxReactions && len(added) > 0 {
		return nil, apperr.Conflictf("this comment has the most reactions it can keep (%d)", MaxReactions)
	}
	return out, nil
}
