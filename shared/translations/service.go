// Package translations holds an organization's translation settings: named
// sets of languages its content is translated into.
//
// Decisions (docs/sso.md has the family's whole story):
//   - Settings are stored in the organization's partition and listed in
//     creation order (their ids sort by time), paged.
//   - Members who may read content (role read and up) list and read them;
//     organization admins create, replace and delete them. Guests get 403,
//     outsiders 404, as everywhere.
//   - title is 1 to 100 characters after trimming; languages are distinct
//     codes of the reference's TranslationLanguage. PUT replaces the title
//     and, when given, the languages (omitted: unchanged).
//   - An organization has at most MaxSettings of them.
package translations

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// MaxSettings is the most translation settings an organization has.
const MaxSettings = 200

// languageCodes are the codes of the reference's TranslationLanguage (the
// same list is the enum of the languages fields in package
// translationshttp; a test keeps them equal).
const languageCodes = "en,fr,de,es,it,pt,ru,ja,zh,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl"

// Languages returns the language codes settings may name.
func Languages() []string { return strings.Split(languageCodes, ",") }

// Service manages translation settings.
type Service struct {
	d *deps.Deps
}

// New returns the translations service.
func New(d *deps.Deps) *Service { return &Service{d: d} }

// checkTitle trims a title and checks its length.
func checkTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	if n := utf8.RuneCountInString(title); n < 1 || n > 100 {
		return "", apperr.Field("title", "must be 1 to 100 characters")
	}
	return title, nil
}

// checkLanguages refuses unknown and repeated codes; nil becomes empty.
func checkLanguages(langs []string) ([]string, error) {
	known := Languages()
	out := make([]string, 0, len(langs))
	for i, l := range langs {
		if !slices.Contains(known, l) {
			return nil, apperr.Field(fmt.Sprintf("languages[%d]", i), "unknown language %q", l)
		}
		if slices.Contains(out, l) {
			return nil, apperr.Field(fmt.Sprintf("languages[%d]", i), "language %q appears twice", l)
		}
		out = append(out, l)
	}
	return out, nil
}

// Create makes translation settings (admins).
func (s *Service) Create(ctx context.Context, orgID, title string, langs []string) (model.TranslationSettings, model.Role, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg)
	if err != nil {
		return model.TranslationSettings{}, "", err
	}
	if title, err = checkTitle(title); err != nil {
		return model.TranslationSettings{}, "", err
	}
	if langs, err = checkLanguages(langs); err != nil {
		return model.TranslationSettings{}, "", err
	}
	now := s.d.Clock()
	t := model.TranslationSettings{ID: ids.New(now), OrgID: orgID, Title: title, Languages: langs, CreatedAt: now, UpdatedAt: now}
	err = orgs.AddRecord(ctx, s.d.Store, orgID, keys.TranslationPrefix, MaxSettings, "translation settings", keys.Translation(orgID, t.ID), t)
	if errors.Is(err, store.ErrConflict) {
		return model.TranslationSettings{}, "", apperr.NotFoundf("organization %s not found", orgID)
	}
	if err != nil {
		return model.TranslationSettings{}, "", err
	}
	return t, acc.Role(), nil
}

// List returns a page of an organization's translation settings, oldest first.
func (s *Service) List(ctx context.Context, orgID string, r paging.Request) (paging.Page[model.TranslationSettings], model.Role, error) {
	return orgs.ListRecords[model.TranslationSettings](ctx, s.d, orgID, access.ReadContent, "translations", keys.TranslationPrefix, "translation settings", r)
}

func notFound(id string) error { return apperr.NotFoundf("translation settings %s not found", id) }

// Get returns translation settings.
func (s *Service) Get(ctx context.Context, orgID, id string) (model.TranslationSettings, model.Role, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.ReadContent)
	if err != nil {
		return model.TranslationSettings{}, "", err
	}
	t, _, err := records.Read[model.TranslationSettings](ctx, s.d.Store, keys.Translation(orgID, id), "translation settings", id)
	if err != nil {
		return t, "", err
	}
	return t, acc.Role(), nil
}

// Replace sets the title and, when langs is not nil, the languages (admins).
func (s *Service) Replace(ctx context.Context, orgID, id, title string, langs []string) (model.TranslationSettings, model.Role, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg)
	if err != nil {
		return model.TranslationSettings{}, "", err
	}
	if title, err = checkTitle(title); err != nil {
		return model.TranslationSettings{}, "", err
	}
	if langs != nil {
		if langs, err = checkLanguages(langs); err != nil {
			return model.TranslationSettings{}, "", err
		}
	}
	t, err := records.Update(ctx, s.d.Store, keys.Translation(orgID, id), nil, func(t *model.TranslationSettings) ([]store.Op, error) {
		was := *t
		t.Title = title
		if langs != nil {
			t.Languages = langs
		}
		if !records.Same(was, *t) {
			t.UpdatedAt = s.d.Clock()
		}
		return nil, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return t, "", notFound(id)
	}
	if err != nil {
		return t, "", fmt.Errorf("update translation settings: %w", err)
	}
	return t, acc.Role(), nil
}

// Delete removes translation settings (admins).
func (s *Service) Delete(ctx context.Context, orgID, id string) (bool, error) {
	return orgs.RemoveRecord(ctx, s.d, orgID, access.AdminOrg, keys.Translation(orgID, id), "translation settings")
}
