package spaces

import (
	"context"
	"slices"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
)

// read reads a space's record and its version. Decoding the record is a
// good part of the CPU of a space's read (a GET of a space in local mode
// spent more in JSON decoding than in anything else), so the service keeps
// the last records it decoded (records.Memo, keyed by their bytes).
func (s *Service) read(ctx context.Context, spaceID string) (model.Space, int64, error) {
	k := keys.Space(spaceID)
	it, err := s.d.Store.Get(ctx, k.PK, k.SK)
	if err != nil {
		return model.Space{}, 0, err
	}
	sp, err := s.decoded.Decode(it)
	return sp, it.Version, err
}

// maxDecodedSpaces bounds the kept records (a few hundred bytes each).
const maxDecodedSpaces = 1024

// cloneSpace is a copy of sp sharing nothing a caller could change.
func cloneSpace(sp model.Space) model.Space {
	sp.Ancestors = slices.Clone(sp.Ancestors)
	if sp.DeletedAt != nil {
		t := *sp.DeletedAt
		sp.DeletedAt = &t
	}
	if sp.MergeRules != nil {
		r := *sp.MergeRules
		r.Rules = slices.Clone(r.Rules)
		for i := range r.Rules {
			r.Rules[i].Users = slices.Clone(r.Rules[i].Users)
		}
		sp.MergeRules = &r
	}
	return sp
}
