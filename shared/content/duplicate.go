package content

import (
	"context"
	"fmt"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// RevisionDuplicate is the type of a duplicated space's first revision.
const RevisionDuplicate = "edits"

// Duplicate makes a copy of a space beside it (the same collection, at
// its end): a new space, titled "<title> (copy)" (cut to the title's
// limit), with the source's current pages and files (their ids kept: they
// are per space) and its emoji and icon. Its comments, change requests,
// Git Sync, grants and site memberships are not copied. It takes the read
// level on the source and the right to create in its collection.
func (s *Service) Duplicate(ctx context.Context, spaceID string) (model.Space, model.Role, error) {
	src, _, err := s.Space(ctx, spaceID, access.ReadContent)
	if err != nil {
		return model.Space{}, "", err
	}
	title := []rune(src.Title + " (copy)")
	if len(title) > spaces.MaxTitle {
		title = title[:spaces.MaxTitle]
	}
	dst, _, err := s.spaces.Create(ctx, src.OrgID, spaces.Create{Title: string(title), Emoji: src.Emoji, Parent: src.Parent, EditMode: src.EditMode})
	if err != nil {
		return model.Space{}, "", err
	}
	_, ix, err := s.Repo.Load(ctx, spaceID, src.Revision)
	if err != nil {
		return model.Space{}, "", err
	}
	// Bodies and files are stored per space: copy them.
	var copyErr error
	ix.Walk(func(p *Page, _ int) bool {
		if p.Document == "" {
			return true
		}
		body, err := s.Repo.Document(ctx, spaceID, p.Document)
		if err == nil {
			_, err = s.Repo.PutDocument(ctx, dst.ID, body)
		}
		copyErr = err
		return err == nil
	})
	if copyErr != nil {
		return model.Space{}, "", copyErr
	}
	for _, f := range ix.Files() {
		data, err := s.Repo.FileBytes(ctx, spaceID, f.Blob)
		if err != nil {
			return model.Space{}, "", fmt.Errorf("copy file %s: %w", f.ID, err)
		}
		if _, err := s.Repo.PutFileBytes(ctx, dst.ID, data, f.ContentType); err != nil {
			return model.Space{}, "", err
		}
	}
	var out model.Space
	err = store.Retry(ctx, func() error {
		cur, v, err := spaces.ReadLive(ctx, s.d.Store, dst.ID)
		if err != nil {
			return err
		}
		rev, err := s.Repo.NewRevision(ctx, dst.ID, RevisionDuplicate, []string{cur.Revision}, ix)
		if err != nil {
			return err
		}
		cur, op := spaces.Apply(cur, v, spaces.SetHead(rev.ID, rev.CreatedAt), spaces.SetIcon(src.Icon))
		out = cur
		return s.d.Store.Write(ctx, Put(rev), op)
	})
	if err != nil {
		return model.Space{}, "", err
	}
	_, role, err := s.spaces.Get(ctx, out.ID)
	return out, role, err
}
