// Package customfields is the custom fields family: an organization's
// definitions of metadata fields for its spaces, and each space's values.
//
// Decisions:
//   - Its own family (CustomFieldsFunction), serving both the
//     organization's definitions and the values on spaces.
//   - Definitions are listed by name. Members who may read content (role
//     read and up) read them; organization admins create, update and delete
//     them. An organization has at most MaxFields of them.
//   - options are required for select:single and select:multi and refused
//     for other types; they are 1..40 characters and unique.
//   - Values are typed against their field: text a string (at most 256
//     characters), number a number, boolean a boolean, tags an array of
//     strings, select:single one of the options (a string), select:multi an
//     array of distinct options. null removes a value. A value of the wrong
//     type, an option not in options or a name that is no field answers 400
//     naming values.<name>. At most MaxValuesPerUpdate values change in one
//     request (one transaction, which also checks each field is unchanged).
//   - Changing a field's options does not rewrite the values already set.
//   - GET /v1/spaces/{spaceId}/custom-fields lists every field of the
//     space's organization, by name, with the space's value where it has one.
//   - A value is stored under its field's id, which is never reused: deleting
//     a field hides its values at once, and the values themselves are then
//     deleted from every space.
package customfields

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Limits.
const (
	// MaxFields is the most custom fields an organization has.
	MaxFields = 100
	// MaxValuesPerUpdate is the most values one update sets or removes: each
	// is written with a check of its field, in one transaction.
	MaxValuesPerUpdate = (store.MaxTransactionOps - 1) / 2
	// MaxTextLength bounds a text value and each string of a tags value.
	MaxTextLength = 256
	// MaxTags bounds the strings of a tags value.
	MaxTags = 100
)

// Service manages custom fields.
type Service struct {
	d      *deps.Deps
	spaces Spaces
}

// Spaces is what custom fields ask of the spaces family (spaces.Service):
// a space and the caller's role on it.
type Spaces interface {
	Get(ctx context.Context, spaceID string) (model.Space, model.Role, error)
	Live(ctx context.Context, spaceID string, op access.OrgOp) (model.Space, model.Role, error)
}

// New returns the custom fields service.
func New(d *deps.Deps, spaces Spaces) *Service { return &Service{d: d, spaces: spaces} }

// Create is the input of Create.
type Create struct {
	Name, Type, Title, Description, Placeholder string
	Options                                     []string
}

// Change is the input of Update: nil fields are left as they are.
type Change struct {
	Title, Description, Placeholder *string
	Options                         []string
}

// Entry is a field with a space's value of it (nil when unset).
type Entry struct {
	Field model.CustomField
	Value json.RawMessage
}

func isSelect(typ string) bool {
	return typ == model.FieldSelectSingle || typ == model.FieldSelectMulti
}

// checkOptions validates options for a field of type typ.
func checkOptions(typ string, options []string) error {
	if !isSelect(typ) {
		if options != nil {
			return apperr.Field("options", "only select:single and select:multi fields have options")
		}
		return nil
	}
	if len(options) == 0 {
		return apperr.Field("options", "a %s field needs options", typ)
	}
	seen := map[string]bool{}
	for _, o := range options {
		if l := len([]rune(o)); l < 1 || l > 40 {
			return apperr.Field("options", "each option is 1 to 40 characters")
		}
		if seen[o] {
			return apperr.Field("options", "option %q appears twice", o)
		}
		seen[o] = true
	}
	return nil
}

// Create defines a custom field in an organization (admins).
func (s *Service) Create(ctx context.Context, orgID string, in Create) (model.CustomField, model.Role, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg)
	if err != nil {
		return model.CustomField{}, "", err
	}
	if err := checkOptions(in.Type, in.Options); err != nil {
		return model.CustomField{}, "", err
	}
	now := s.d.Clock()
	f := model.CustomField{ID: ids.New(now), OrgID: orgID, Name: in.Name, Type: in.Type, Title: in.Title, Description: in.Description,
		Placeholder: in.Placeholder, Options: in.Options, CreatedAt: now, UpdatedAt: now}
	err = orgs.AddRecord(ctx, s.d.Store, orgID, keys.CustomFieldPrefix, MaxFields, "custom fields", keys.CustomField(orgID, f.Name), f)
	if errors.Is(err, store.ErrConflict) {
		return model.CustomField{}, "", apperr.Conflictf("a custom field named %s already exists", f.Name)
	}
	if err != nil {
		return model.CustomField{}, "", err
	}
	return f, acc.Role(), nil
}

// List returns a page of an organization's custom fields, by name.
func (s *Service) List(ctx context.Context, orgID string, r paging.Request) (paging.Page[model.CustomField], model.Role, error) {
	return orgs.ListRecords[model.CustomField](ctx, s.d, orgID, access.ReadContent, "custom-fields", keys.CustomFieldPrefix, "custom fields", r)
}

func (s *Service) get(ctx context.Context, orgID, name string) (model.CustomField, int64, error) {
	return records.Read[model.CustomField](ctx, s.d.Store, keys.CustomField(orgID, name), "custom field", name)
}

// Get returns a custom field by name.
func (s *Service) Get(ctx context.Context, orgID, name string) (model.CustomField, model.Role, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.ReadContent)
	if err != nil {
		return model.CustomField{}, "", err
	}
	f, _, err := s.get(ctx, orgID, name)
	return f, acc.Role(), err
}

// Update changes a custom field's title, description, placeholder or
// options (admins); its name and type do not change.
func (s *Service) Update(ctx context.Context, orgID, name string, ch Change) (model.CustomField, model.Role, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg)
	if err != nil {
		return model.CustomField{}, "", err
	}
	f, err := records.Update(ctx, s.d.Store, keys.CustomField(orgID, name), nil, func(f *model.CustomField) ([]store.Op, error) {
		was := *f
		if ch.Options != nil {
			if err := checkOptions(f.Type, ch.Options); err != nil {
				return nil, err
			}
			f.Options = ch.Options
		}
		records.Set(&f.Title, ch.Title)
		records.Set(&f.Description, ch.Description)
		records.Set(&f.Placeholder, ch.Placeholder)
		if !records.Same(was, *f) {
			f.UpdatedAt = s.d.Clock()
		}
		return nil, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return f, "", apperr.NotFoundf("custom field %s not found", name)
	}
	return f, acc.Role(), err
}

// Delete removes a custom field and its values on every space (admins).
func (s *Service) Delete(ctx context.Context, orgID, name string) error {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return err
	}
	f, v, err := s.get(ctx, orgID, name)
	if err != nil {
		return err
	}
	k := keys.CustomField(orgID, name)
	err = s.d.Store.Write(ctx, store.DeleteIfVersion(k.PK, k.SK, v))
	if errors.Is(err, store.ErrConflict) {
		return apperr.Conflictf("custom field %s changed while it was being deleted; try again", name)
	}
	if err != nil {
		return fmt.Errorf("delete custom field: %w", err)
	}
	// The values are invisible from here on (they hang off the field's id);
	// removing them is cleanup, which a value written at this very moment and
	// missed by the (eventually consistent) index would escape, unseen.
	return s.deleteValues(ctx, f.ID)
}

// deleteValues removes every value of a field, a transaction at a time.
func (s *Service) deleteValues(ctx context.Context, fieldID string) error {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{Index: store.GSI1, PK: keys.FieldValues(fieldID)})
	if err != nil {
		return fmt.Errorf("read values of a deleted field: %w", err)
	}
	for len(items) > 0 {
		n := min(len(items), store.MaxTransactionOps)
		ops := make([]store.Op, 0, n)
		for _, it := range items[:n] {
			ops = append(ops, store.Delete(it.PK, it.SK, store.Always))
		}
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return fmt.Errorf("delete values of a deleted field: %w", err)
		}
		items = items[n:]
	}
	return nil
}

// fieldsOf reads every custom field of an organization, by name.
func (s *Service) fieldsOf(ctx context.Context, orgID string) ([]model.CustomField, []int64, error) {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.CustomFieldPrefix})
	if err != nil {
		return nil, nil, fmt.Errorf("read custom fields: %w", err)
	}
	fs, err := records.DecodeAll[model.CustomField](items)
	versions := make([]int64, len(items))
	for i, it := range items {
		versions[i] = it.Version
	}
	return fs, versions, err
}

// SpaceValues returns every custom field of a space's organization with the
// space's value of it, to those who may read the space.
func (s *Service) SpaceValues(ctx context.Context, spaceID string) ([]Entry, model.Role, error) {
	sp, _, err := s.spaces.Get(ctx, spaceID)
	if err != nil {
		return nil, "", err
	}
	fs, _, err := s.fieldsOf(ctx, sp.OrgID)
	if err != nil {
		return nil, "", err
	}
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.CustomFieldValues(spaceID), SKPrefix: keys.CustomFieldValuePrefix})
	if err != nil {
		return nil, "", fmt.Errorf("read custom field values: %w", err)
	}
	vals, err := records.DecodeAll[model.CustomFieldValue](items)
	if err != nil {
		return nil, "", err
	}
	byField := map[string]json.RawMessage{}
	for _, v := range vals {
		byField[v.FieldID] = v.Value
	}
	out := make([]Entry, 0, len(fs))
	for _, f := range fs {
		out = append(out, Entry{Field: f, Value: byField[f.ID]})
	}
	acc, err := s.d.Authz.RequireOrg(ctx, sp.OrgID, access.ViewOrg)
	return out, acc.Role(), err
}

// SetSpaceValues sets (or, for null, removes) values of a space's custom
// fields, by field name, for those who may edit the space.
func (s *Service) SetSpaceValues(ctx context.Context, spaceID string, values map[string]any) error {
	sp, _, err := s.spaces.Live(ctx, spaceID, access.EditContent)
	if err != nil {
		return err
	}
	if len(values) > MaxValuesPerUpdate {
		return apperr.Field("values", "at most %d values change in one request", MaxValuesPerUpdate)
	}
	fs, versions, err := s.fieldsOf(ctx, sp.OrgID)
	if err != nil {
		return err
	}
	byName := map[string]int{}
	for i, f := range fs {
		byName[f.Name] = i
	}
	now := s.d.Clock()
	ops := []store.Op{spaces.CheckExists(spaceID)}
	for name, v := range values {
		i, ok := byName[name]
		if !ok {
			return apperr.Field("values."+name, "no custom field is named %s", name)
		}
		f := fs[i]
		fk := keys.CustomField(f.OrgID, f.Name)
		ops = append(ops, store.Check(fk.PK, fk.SK, store.IfVersion, versions[i]))
		vk := keys.CustomFieldValue(spaceID, f.ID)
		if v == nil {
			ops = append(ops, store.Delete(vk.PK, vk.SK, store.Always))
			continue
		}
		if err := check(f, v); err != nil {
			return apperr.Field("values."+name+".value", "%s", err)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encode value: %w", err)
		}
		ops = append(ops, store.Put(valueItem(model.CustomFieldValue{SpaceID: spaceID, FieldID: f.ID, Value: raw, UpdatedAt: now}), store.Always))
	}
	err = s.d.Store.Write(ctx, ops...)
	if errors.Is(err, store.ErrConflict) {
		return apperr.Conflictf("the space or its organization's custom fields changed meanwhile; try again")
	}
	if err != nil {
		return fmt.Errorf("write custom field values: %w", err)
	}
	return nil
}

// check validates a value (decoded from JSON) against its field's type.
func check(f model.CustomField, v any) error {
	inOptions := func(s string) bool {
		for _, o := range f.Options {
			if o == s {
				return true
			}
		}
		return false
	}
	strs := func() ([]string, error) {
		arr, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("field %s (%s) takes an array of strings", f.Name, f.Type)
		}
		out := make([]string, 0, len(arr))
		for _, x := range arr {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("field %s (%s) takes an array of strings", f.Name, f.Type)
			}
			out = append(out, s)
		}
		return out, nil
	}
	switch f.Type {
	case model.FieldText:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("field %s (text) takes a string", f.Name)
		}
		if len([]rune(s)) > MaxTextLength {
			return fmt.Errorf("field %s takes at most %d characters", f.Name, MaxTextLength)
		}
	case model.FieldNumber:
		if _, ok := v.(float64); !ok {
			return fmt.Errorf("field %s (number) takes a number", f.Name)
		}
	case model.FieldBoolean:
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("field %s (boolean) takes true or false", f.Name)
		}
	case model.FieldTags:
		ss, err := strs()
		if err != nil {
			return err
		}
		if len(ss) > MaxTags {
			return fmt.Errorf("field %s takes at most %d tags", f.Name, MaxTags)
		}
		for _, s := range ss {
			if len([]rune(s)) > MaxTextLength {
				return fmt.Errorf("field %s: a tag has at most %d characters", f.Name, MaxTextLength)
			}
		}
	case model.FieldSelectSingle:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("field %s (select:single) takes one of its options, as a string", f.Name)
		}
		if !inOptions(s) {
			return fmt.Errorf("%q is not an option of field %s", s, f.Name)
		}
	case model.FieldSelectMulti:
		ss, err := strs()
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, s := range ss {
			if !inOptions(s) {
				return fmt.Errorf("%q is not an option of field %s", s, f.Name)
			}
			if seen[s] {
				return fmt.Errorf("option %q appears twice", s)
			}
			seen[s] = true
		}
	default:
		return fmt.Errorf("field %s has an unknown type %s", f.Name, f.Type)
	}
	return nil
}

// DropValuesOps returns the operations that remove a space's custom field
// values inside the caller's transaction (a space leaving its
// organization leaves its fields behind).
func DropValuesOps(ctx context.Context, st store.Store, spaceID string) ([]store.Op, error) {
	items, err := store.QueryAll(ctx, st, store.Query{PK: keys.CustomFieldValues(spaceID), SKPrefix: keys.CustomFieldValuePrefix})
	if err != nil {
		return nil, fmt.Errorf("read custom field values: %w", err)
	}
	ops := make([]store.Op, len(items))
	for i, it := range items {
		ops[i] = store.Delete(it.PK, it.SK, store.Always)
	}
	return ops, nil
}

// valueItem is a custom field value's item, in its field's list of values.
func valueItem(v model.CustomFieldValue) store.Item {
	it := records.Item(keys.CustomFieldValue(v.SpaceID, v.FieldID), v, 1)
	ik := keys.CustomFieldValueByField(v.FieldID, v.SpaceID)
	it.GSI1PK, it.GSI1SK = ik.PK, ik.SK
	return it
}
