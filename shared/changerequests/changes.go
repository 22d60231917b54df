package changerequests

import (
	"context"
	"slices"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/model"
)

// Changes lists what a request changes (read level): the changes from the
// space revision it is based on (its base: the space's head it was last
// brought up to date with, else the one it branched from) to its
// revision, as content.Diff lists them; at most limit, with how many more.
func (s *Service) Changes(ctx context.Context, spaceID, ref string, limit int) (content.SemanticChanges, error) {
	if _, _, err := s.content.Space(ctx, spaceID, access.ReadContent); err != nil {
		return content.SemanticChanges{}, err
	}
	cr, _, err := s.read(ctx, spaceID, ref)
	if err != nil {
		return content.SemanticChanges{}, err
	}
	_, old, err := s.repo.Load(ctx, spaceID, cr.Base())
	if err != nil {
		return content.SemanticChanges{}, err
	}
	_, ix, err := s.repo.Load(ctx, spaceID, cr.Revision)
	if err != nil {
		return content.SemanticChanges{}, err
	}
	return content.Diff(old, ix, limit), nil
}

// Contributor is a request's contributor, with their edits.
type Contributor struct {
	User model.User
	model.Contribution
}

// Contributors returns a request's contributors (read level), in the
// order they joined it: its creator, then each user who made a change
// (batches of changes, updates from the space), with the number of changes
// they made and when they made their last. A creator who made no change
// counts 0, at the request's creation; contributors of requests written
// before edits were counted count 0, at the request's last update.
func (s *Service) Contributors(ctx context.Context, spaceID, ref string) ([]Contributor, error) {
	cr, _, err := s.Get(ctx, spaceID, ref)
	if err != nil {
		return nil, err
	}
	out := make([]Contributor, 0, len(cr.Contributors))
	for _, id := range cr.Contributors {
		c := model.Contribution{UserID: id, UpdatedAt: cr.UpdatedAt}
		if id == cr.CreatedBy {
			c.UpdatedAt = cr.CreatedAt
		}
		if i := slices.IndexFunc(cr.Edits, func(e model.Contribution) bool { return e.UserID == id }); i >= 0 {
			c = cr.Edits[i]
		}
		u, err := s.content.User(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, Contributor{User: u, Contribution: c})
	}
	return out, nil
}
