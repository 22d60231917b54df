package changerequests

import (
	"context"
	"fmt"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/fileinfo"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
)

// FileInput is a file to insert: its bytes, a URL to fetch them from, or
// the key of an upload to the space's organization.
type FileInput struct {
	Ref, Name, ContentType string
	Data                   []byte
	URL                    string
	StorageKey             string
}

// Batch is an authoring batch: changes whose insert_files carry Inputs
// (Change.Files is filled by Author).
type Batch struct {
	Changes []content.Change
	Inputs  [][]FileInput // by change, for insert_files
}

// Authored is the outcome of a batch.
type Authored struct {
	ChangeRequest model.ChangeRequest
	Space         model.Space
	// Refs maps the batch's refs to the ids of the pages and files made.
	Refs map[string]string
	// Outcomes are the pages affected, in the order first touched.
	Outcomes []content.Outcome
	// Files are the ids of the files inserted, in order.
	Files []string
}

// Author applies a batch of changes to a draft or open request: one new
// revision of the request, or nothing when a change is invalid.
func (s *Service) Author(ctx context.Context, spaceID, ref string, b Batch) (Authored, error) {
	userID, sp, err := s.callerOn(ctx, spaceID, access.EditContent)
	if err != nil {
		return Authored{}, err
	}
	if _, _, err := s.readActive(ctx, spaceID, ref, "accept changes"); err != nil {
		return Authored{}, err
	}
	if err := s.files(ctx, sp, &b); err != nil {
		return Authored{}, err
	}
	var out Authored
	err = store.Retry(ctx, func() error {
		cr, v, err := s.readActive(ctx, spaceID, ref, "accept changes")
		if err != nil {
			return err
		}
		_, ix, err := s.repo.Load(ctx, spaceID, cr.Revision)
		if err != nil {
			return err
		}
		now := s.d.Clock()
		ed := &content.Editor{Index: ix, Now: now, NewID: func() string { return ids.New(now) },
			PutDocument: func(body string) (string, error) { return s.repo.PutDocument(ctx, spaceID, body) },
			Revision: func(id string) (*content.Index, error) {
				if id == "" {
					id = cr.Base()
				}
				_, then, err := s.repo.Load(ctx, spaceID, id)
				return then, err
			}}
		if err := ed.Apply(b.Changes); err != nil {
			return err
		}
		rev, err := s.repo.NewRevision(ctx, spaceID, content.RevisionEdits, []string{cr.Revision}, ix)
		if err != nil {
			return err
		}
		cr.Revision, cr.UpdatedAt, cr.OrgID = rev.ID, now, sp.OrgID
		addContributor(&cr, userID, now)
		if err := s.d.Store.Write(ctx, append(crOps(cr, v), content.Put(rev))...); err != nil {
			return err
		}
		out = Authored{ChangeRequest: cr, Space: sp, Refs: ed.Refs, Outcomes: ed.Outcomes}
		for _, c := range b.Changes {
			for _, f := range c.Files {
				out.Files = append(out.Files, f.ID)
			}
		}
		return nil
	})
	return out, err
}

// files reads (or fetches) and stores the batch's files, filling the
// insert_files changes with them.
func (s *Service) files(ctx context.Context, sp model.Space, b *Batch) error {
	var fetcher *fetch.Client
	now := s.d.Clock()
	for i := range b.Changes {
		if i >= len(b.Inputs) {
			break
		}
		c := &b.Changes[i]
		for j, in := range b.Inputs[i] {
			field := fmt.Sprintf("changes[%d].files[%d]", i, j)
			data, max := in.Data, content.MaxFileBytes
			switch {
			case in.URL != "" && len(in.Data) > 0:
				return apperr.Field(field+".url", "give either content or url, not both")
			case in.StorageKey != "":
				var err error
				if data, err = s.content.Uploaded(ctx, sp.OrgID, in.StorageKey, field+".storageKey"); err != nil {
					return err
				}
				max = content.MaxUploadBytes
			case in.URL != "":
				if fetcher == nil {
					fetcher = fetch.New(s.d.FetchAllowPrivate)
				}
				var err error
				if data, _, err = fetcher.Get(ctx, in.URL, content.MaxFileBytes, field+".url"); err != nil {
					return err
				}
			case len(in.Data) == 0:
				return apperr.Field(field+".content", "a file needs content (base64) or a url")
			}
			if len(data) > max {
				return apperr.New(apperr.TooLarge, "%s: a file may have at most %d bytes", field, max)
			}
			ct, w, h := fileinfo.Describe(in.Name, data)
			if in.ContentType != "" {
				ct = in.ContentType
			}
			hash, err := s.repo.PutFileBytes(ctx, sp.ID, data, ct)
			if err != nil {
				return err
			}
			c.Files = append(c.Files, content.File{ID: ids.New(now), Name: in.Name, ContentType: ct, Size: int64(len(data)),
				Width: w, Height: h, Blob: hash})
			c.FileRefs = append(c.FileRefs, in.Ref)
		}
	}
	return nil
}
