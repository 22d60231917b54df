package sites

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Customization: a site's look and its site spaces' overrides (doc.go,
// "Customization").

// Customization is effective customization settings: a JSON object in the
// API's shape (the HTTP layer validates and documents it), and when they
// were last changed (nil: never, the defaults).
type Customization struct {
	Settings  map[string]any
	UpdatedAt *time.Time
}

// customizationRecord is the one item holding a site's customization and
// the overrides of its site spaces.
type customizationRecord struct {
	Site          map[string]any               `json:"site,omitempty"`
	SiteUpdatedAt *time.Time                   `json:"siteUpdatedAt,omitempty"`
	SiteSpaces    map[string]siteSpaceOverride `json:"siteSpaces,omitempty"`
}

// siteSpaceOverride is the part of the settings a site space overrides.
type siteSpaceOverride struct {
	Settings  map[string]any `json:"settings"`
	UpdatedAt time.Time      `json:"updatedAt"`
}

// defaultCustomization is the settings of a site that has set none.
const defaultCustomization = `{
 "styling": {"theme": "clean", "primaryColor": {"light": "#346DDB", "dark": "#346DDB"},
  "infoColor": {"light": "#787878", "dark": "#787878"}, "successColor": {"light": "#02B351", "dark": "#02B351"},
  "warningColor": {"light": "#FE9A00", "dark": "#FE9A00"}, "dangerColor": {"light": "#FB2C36", "dark": "#FB2C36"},
  "corners": "rounded", "depth": "subtle", "links": "default", "font": "Inter", "monospaceFont": "IBMPlexMono",
  "background": "plain", "icons": "regular",
  "codeTheme": {"default": {"light": "default-light", "dark": "default-dark"}, "openapi": {"light": "default-light", "dark": "default-dark"}},
  "sidebar": {"background": "default", "list": "default"}, "search": "prominent"},
 "internationalization": {"locale": "en"},
 "favicon": {},
 "header": {"preset": "default", "links": []},
 "footer": {"groups": []},
 "themes": {"default": "system", "toggeable": true},
 "feedback": {"enabled": false},
 "ai": {"mode": "none"},
 "advancedCustomization": {"enabled": true},
 "pageActions": {"items": []},
 "externalLinks": {"target": "self"},
 "pagination": {"enabled": true},
 "trademark": {"enabled": true},
 "privacyPolicy": {},
 "socialPreview": {},
 "socialAccounts": [],
 "insights": {"trackingCookie": true}
}`

// DefaultCustomization returns the settings of a site that has set none
// (a fresh copy).
func DefaultCustomization() map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(defaultCustomization), &m); err != nil {
		panic("sites: default customization: " + err.Error())
	}
	return m
}

// Locale is the locale effective settings name
// (internationalization.locale), "" when none.
func Locale(settings map[string]any) string {
	i18n, _ := settings["internationalization"].(map[string]any)
	l, _ := i18n["locale"].(string)
	return l
}

// mergeable are the objects whose members an override sets one by one; any
// other value an override names replaces the base's (a colour, a favicon,
// a list of links).
var mergeable = map[string]bool{
	"": true, "styling": true, "styling.sidebar": true, "styling.codeTheme": true, "internationalization": true,
	"header": true, "footer": true, "themes": true, "feedback": true, "externalLinks": true, "pagination": true,
	"trademark": true, "privacyPolicy": true, "socialPreview": true, "ai": true, "advancedCustomization": true,
	"pageActions": true, "insights": true,
}

// MergeCustomization returns base with override applied as a JSON merge
// patch limited to the settings' sections (mergeable): a null removes the
// member (the base's value, or the default, shows again), an object of a
// section merges member by member, any other value replaces.
func MergeCustomization(base, override map[string]any) map[string]any {
	return merge(base, override, "", false)
}

// patchOverride applies a PATCH to a site space's override: nulls remove
// the override of a member, so that the site's value shows again; a
// section left empty goes.
func patchOverride(old, patch map[string]any, at string) map[string]any {
	return merge(old, patch, at, true)
}

// merge applies over to base: a null removes a member, an object of a
// mergeable section (by path from the root) merges member by member (and,
// with prune, goes when it ends up empty), any other value replaces.
func merge(base, over map[string]any, at string, prune bool) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		path := k
		if at != "" {
			path = at + "." + k
		}
		sub, isObj := v.(map[string]any)
		switch {
		case v == nil:
			delete(out, k)
		case isObj && mergeable[path]:
			b, _ := out[k].(map[string]any)
			if m := merge(b, sub, path, prune); len(m) > 0 || !prune {
				out[k] = m
			} else {
				delete(out, k)
			}
		default:
			out[k] = v
		}
	}
	return out
}

// dropShown returns patch without the members whose value is the one
// shown (the effective settings) and that the override (over) does not
// set, member by member in mergeable sections.
func dropShown(patch, shown, over map[string]any, at string) map[string]any {
	out := make(map[string]any, len(patch))
	for k, v := range patch {
		path := k
		if at != "" {
			path = at + "." + k
		}
		_, overridden := over[k]
		sub, isObj := v.(map[string]any)
		switch {
		case v == nil:
			out[k] = v
		case isObj && mergeable[path]:
			s, _ := shown[k].(map[string]any)
			o, _ := over[k].(map[string]any)
			if m := dropShown(sub, s, o, path); len(m) > 0 {
				out[k] = m
			}
		case overridden || !records.Same(v, shown[k]):
			out[k] = v
		}
	}
	return out
}

func (s *Service) readCustomization(ctx context.Context, siteID string) (customizationRecord, error) {
	rec, _, err := records.Get[customizationRecord](ctx, s.d.Store, keys.SiteCustomization(siteID))
	if errors.Is(err, store.ErrNotFound) {
		return customizationRecord{}, nil
	}
	if err != nil {
		return rec, fmt.Errorf("read customization: %w", err)
	}
	return rec, nil
}

// siteSettings is the site's effective settings from its record.
func (rec customizationRecord) siteSettings() Customization {
	return Customization{Settings: MergeCustomization(DefaultCustomization(), rec.Site), UpdatedAt: rec.SiteUpdatedAt}
}

// siteSpaceSettings is a site space's effective settings: the site's with
// the site space's override.
func (rec customizationRecord) siteSpaceSettings(siteSpaceID string) Customization {
	c := rec.siteSettings()
	if o, ok := rec.SiteSpaces[siteSpaceID]; ok {
		c.Settings = MergeCustomization(c.Settings, o.Settings)
		at := o.UpdatedAt
		if c.UpdatedAt == nil || at.After(*c.UpdatedAt) {
			c.UpdatedAt = &at
		}
	}
	return c
}

// Customization returns a site's effective customization settings (the
// defaults where it set none). A visitor's site token may read it.
func (s *Service) Customization(ctx context.Context, orgID, siteID string) (Customization, error) {
	if _, err := s.loadRead(ctx, orgID, siteID, true); err != nil {
		return Customization{}, err
	}
	rec, err := s.readCustomization(ctx, siteID)
	if err != nil {
		return Customization{}, err
	}
	return rec.siteSettings(), nil
}

// PutCustomization replaces a site's customization settings (validated by
// the caller against the API's shape).
func (s *Service) PutCustomization(ctx context.Context, orgID, siteID string, settings map[string]any) (Customization, error) {
	var out Customization
	err := s.changeCustomization(ctx, orgID, siteID, "", func(rec *customizationRecord, now time.Time) error {
		// The settings it shows already (a GET answer sent back) change
		// nothing, its date included.
		if !records.Same(rec.siteSettings().Settings, MergeCustomization(DefaultCustomization(), settings)) {
			rec.Site, rec.SiteUpdatedAt = settings, &now
		}
		out = rec.siteSettings()
		return nil
	})
	return out, err
}

// SiteSpaceCustomization returns a site space's effective settings: the
// site's, with the site space's override.
func (s *Service) SiteSpaceCustomization(ctx context.Context, orgID, siteID, siteSpaceID string) (Customization, error) {
	l, err := s.loadRead(ctx, orgID, siteID, true)
	if err != nil {
		return Customization{}, err
	}
	if _, err := findSiteSpace(&l.Site, siteSpaceID); err != nil {
		return Customization{}, err
	}
	rec, err := s.readCustomization(ctx, siteID)
	if err != nil {
		return Customization{}, err
	}
	return rec.siteSpaceSettings(siteSpaceID), nil
}

// OverrideSiteSpaceCustomization applies patch to a site space's override
// (null members reset to the site's value) and returns its effective
// settings.
func (s *Service) OverrideSiteSpaceCustomization(ctx context.Context, orgID, siteID, siteSpaceID string, patch map[string]any) (Customization, error) {
	var out Customization
	err := s.changeCustomization(ctx, orgID, siteID, siteSpaceID, func(rec *customizationRecord, now time.Time) error {
		if rec.SiteSpaces == nil {
			rec.SiteSpaces = map[string]siteSpaceOverride{}
		}
		old, had := rec.SiteSpaces[siteSpaceID]
		// Members sent with the value the site space shows already, and
		// not overridden, stay the site's: its GET answer sent back pins
		// nothing and changes nothing, its date included.
		patch = dropShown(patch, rec.siteSpaceSettings(siteSpaceID).Settings, old.Settings, "")
		settings := patchOverride(old.Settings, patch, "")
		if (had && !records.Same(old.Settings, settings)) || (!had && len(settings) > 0) {
			rec.SiteSpaces[siteSpaceID] = siteSpaceOverride{Settings: settings, UpdatedAt: now}
		}
		out = rec.siteSpaceSettings(siteSpaceID)
		return nil
	})
	return out, err
}

// DeleteSiteSpaceCustomization removes a site space's override; false when
// it had none.
func (s *Service) DeleteSiteSpaceCustomization(ctx context.Context, orgID, siteID, siteSpaceID string) (bool, error) {
	existed := false
	err := s.changeCustomization(ctx, orgID, siteID, siteSpaceID, func(rec *customizationRecord, _ time.Time) error {
		_, existed = rec.SiteSpaces[siteSpaceID]
		delete(rec.SiteSpaces, siteSpaceID)
		return nil
	})
	return existed, err
}

// changeCustomization changes a site's customization record with fn, under
// the record's version, checking the site still exists (and, when
// siteSpaceID is set, holds that site space). Overrides of site spaces the
// site no longer holds are dropped on the way.
func (s *Service) changeCustomization(ctx context.Context, orgID, siteID, siteSpaceID string, fn func(rec *customizationRecord, now time.Time) error) error {
	return store.Retry(ctx, func() error {
		l, err := s.load(ctx, orgID, siteID, opAdmin)
		if err != nil {
			return err
		}
		if siteSpaceID != "" {
			if _, err := findSiteSpace(&l.Site, siteSpaceID); err != nil {
				return err
			}
		}
		k := keys.SiteCustomization(siteID)
		rec, v, err := records.Get[customizationRecord](ctx, s.d.Store, k)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("read customization: %w", err)
		}
		for id := range rec.SiteSpaces {
			if _, err := findSiteSpace(&l.Site, id); err != nil {
				delete(rec.SiteSpaces, id)
			}
		}
		if err := fn(&rec, s.d.Clock()); err != nil {
			return err
		}
		it := records.Item(k, rec, v+1)
		if it.Size() > store.MaxItemBytes {
			return apperr.New(apperr.TooLarge, "the site's customization settings are too large to store")
		}
		put := store.PutIfVersion(it, v)
		if v == 0 {
			put = store.Put(it, store.IfNotExists)
		}
		site := keys.Site(siteID)
		err = s.d.Store.Write(ctx, store.Check(site.PK, site.SK, store.IfVersion, l.Version), put)
		if errors.Is(err, store.ErrConflict) {
			return store.ErrConflict // the site or the settings changed meanwhile: read again
		}
		if err == nil && l.Site.Published {
			// Every page shows the site's look.
			s.invalidate(ctx, fmt.Sprintf("customization-%s-%d", siteID, v+1), withWildcards(s.siteRoots(l.Site)))
		}
		return err
	})
}

// findSiteSpace returns a site space of the site.
func findSiteSpace(site *model.Site, id string) (*model.SiteSpace, error) {
	for i := range site.SiteSpaces {
		if site.SiteSpaces[i].ID == id {
			return &site.SiteSpaces[i], nil
		}
	}
	return nil, apperr.NotFoundf("site space %s not found", id)
}
