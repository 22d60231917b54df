package sites

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Adaptive content: a site's visitor schema says which claims a visitor may
// carry; conditions on sections and site spaces test them.

// draft07 is the only $schema an adaptive schema may name.
const draft07 = "http://json-schema.org/draft-07/schema#"

// unsignedDescription is the description GitBook's schema gives the
// unsigned claims.
const unsignedDescription = "Unsigned claims of the site visitor."

// maxClaims bounds the properties of one level of a schema.
const maxClaims = 100

// claimName is a property name usable in a condition (visitor.claims.<name>).
var claimName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// emptySchema is the schema of a site that has not set one.
func emptySchema() json.RawMessage {
	return json.RawMessage(`{"$schema":"` + draft07 + `","type":"object","properties":{},"additionalProperties":false}`)
}

// AdaptiveSchema returns a site's adaptive schema (an empty one, dated at
// the site's creation, when none was set).
func (s *Service) AdaptiveSchema(ctx context.Context, orgID, siteID string) (model.SiteAdaptiveSchema, error) {
	l, err := s.load(ctx, orgID, siteID, opRead)
	if err != nil {
		return model.SiteAdaptiveSchema{}, err
	}
	sch, _, err := records.Get[model.SiteAdaptiveSchema](ctx, s.d.Store, keys.SiteAdaptiveSchema(siteID))
	if errors.Is(err, store.ErrNotFound) {
		return model.SiteAdaptiveSchema{SiteID: siteID, JSONSchema: emptySchema(), UpdatedAt: l.Site.CreatedAt}, nil
	}
	if err != nil {
		return sch, fmt.Errorf("read adaptive schema: %w", err)
	}
	return sch, nil
}

// PutAdaptiveSchema validates and stores a site's adaptive schema.
func (s *Service) PutAdaptiveSchema(ctx context.Context, orgID, siteID string, schema map[string]any) (model.SiteAdaptiveSchema, error) {
	l, err := s.load(ctx, orgID, siteID, opStructure)
	if err != nil {
		return model.SiteAdaptiveSchema{}, err
	}
	if err := validateSchema(schema); err != nil {
		return model.SiteAdaptiveSchema{}, err
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return model.SiteAdaptiveSchema{}, err
	}
	// The schema it has already (a GET answer sent back) changes nothing,
	// its date included.
	cur, _, err := records.Get[model.SiteAdaptiveSchema](ctx, s.d.Store, keys.SiteAdaptiveSchema(siteID))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return model.SiteAdaptiveSchema{}, fmt.Errorf("read adaptive schema: %w", err)
	}
	if err != nil {
		cur = model.SiteAdaptiveSchema{SiteID: siteID, JSONSchema: emptySchema(), UpdatedAt: l.Site.CreatedAt}
	}
	var was any
	if json.Unmarshal(cur.JSONSchema, &was) == nil && records.Same(was, schema) {
		return cur, nil
	}
	sch := model.SiteAdaptiveSchema{SiteID: siteID, JSONSchema: raw, UpdatedAt: s.d.Clock()}
	site := keys.Site(siteID)
	it := records.Item(keys.SiteAdaptiveSchema(siteID), sch, 1)
	if it.Size() > store.MaxItemBytes {
		return sch, apperr.New(apperr.TooLarge, "jsonSchema: the schema is too large to store")
	}
	// The site must still exist: a schema never outlives its site.
	err = s.d.Store.Write(ctx, store.Check(site.PK, site.SK, store.IfExists, 0), store.Put(it, store.Always))
	if errors.Is(err, store.ErrConflict) {
		return sch, apperr.NotFoundf("site %s not found", l.Site.ID)
	}
	return sch, err
}

// TemplateCondition is a suggested condition on a schema's claims.
type TemplateCondition struct {
	Description, Condition string
}

// TemplateConditions derives one condition per boolean claim of the site's
// schema: signed claims (visitor.claims.<name>) then unsigned ones
// (visitor.claims.unsigned.<name>), each by name.
func (s *Service) TemplateConditions(ctx context.Context, orgID, siteID string) ([]TemplateCondition, error) {
	sch, err := s.AdaptiveSchema(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(sch.JSONSchema, &doc); err != nil {
		return nil, fmt.Errorf("decode adaptive schema: %w", err)
	}
	out := []TemplateCondition{}
	var unsigned []TemplateCondition
	for _, name := range sortedKeys(doc.Properties) {
		var p struct {
			Description string                     `json:"description"`
			Properties  map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(doc.Properties[name], &p); err != nil {
			return nil, fmt.Errorf("decode adaptive schema: %w", err)
		}
		if name == "unsigned" {
			for _, u := range sortedKeys(p.Properties) {
				var up struct {
					Description string `json:"description"`
				}
				_ = json.Unmarshal(p.Properties[u], &up)
				unsigned = append(unsigned, condition("visitor.claims.unsigned."+u, u, up.Description))
			}
			continue
		}
		out = append(out, condition("visitor.claims."+name, name, p.Description))
	}
	return append(out, unsigned...), nil
}

func condition(path, name, description string) TemplateCondition {
	d := "Visitors whose claim " + name + " is true"
	if description != "" {
		d += ": " + description
	}
	return TemplateCondition{Description: d, Condition: path + " === true"}
}

func sortedKeys[V any](m map[string]V) []string {
	out := slices.Sorted(maps.Keys(m))
	return out
}

// validateSchema checks an adaptive schema: a draft-07 object schema whose
// properties are boolean claims, plus an optional "unsigned" object of
// boolean claims; additionalProperties false at both levels. Errors name
// the offending field (jsonSchema.properties.<name>.type, ...).
func validateSchema(s map[string]any) error {
	const at = "jsonSchema"
	if err := onlyKeys(s, at, "$schema", "type", "properties", "additionalProperties"); err != nil {
		return err
	}
	if v, ok := s["$schema"]; ok && v != draft07 {
		return apperr.Field(at+".$schema", "must be %q", draft07)
	}
	if s["type"] != "object" {
		return apperr.Field(at+".type", "must be \"object\"")
	}
	props, err := closedProperties(s, at)
	if err != nil {
		return err
	}
	for name, p := range props {
		field := at + ".properties." + name
		if name == "unsigned" {
			if err := validateUnsigned(p, field); err != nil {
				return err
			}
			continue
		}
		if err := validateClaim(name, p, field); err != nil {
			return err
		}
	}
	return nil
}

// closedProperties is the properties of the object schema s at at, which
// allows no others: at most maxClaims.
func closedProperties(s map[string]any, at string) (map[string]any, error) {
	if s["additionalProperties"] != false {
		return nil, apperr.Field(at+".additionalProperties", "must be false")
	}
	props, ok := s["properties"].(map[string]any)
	if !ok {
		return nil, apperr.Field(at+".properties", "must be an object")
	}
	if len(props) > maxClaims {
		return nil, apperr.Field(at+".properties", "at most %d properties", maxClaims)
	}
	return props, nil
}

func validateUnsigned(v any, field string) error {
	u, ok := v.(map[string]any)
	if !ok {
		return apperr.Field(field, "must be an object")
	}
	if err := onlyKeys(u, field, "type", "description", "properties", "additionalProperties"); err != nil {
		return err
	}
	if u["type"] != "object" {
		return apperr.Field(field+".type", "must be \"object\"")
	}
	switch d := u["description"].(type) {
	case nil:
		u["description"] = unsignedDescription // GitBook's fixed text
	case string:
		if d != unsignedDescription {
			return apperr.Field(field+".description", "must be %q", unsignedDescription)
		}
	default:
		return apperr.Field(field+".description", "must be a string")
	}
	props, err := closedProperties(u, field)
	if err != nil {
		return err
	}
	for name, p := range props {
		if err := validateClaim(name, p, field+".properties."+name); err != nil {
			return err
		}
	}
	return nil
}

func validateClaim(name string, v any, field string) error {
	if !claimName.MatchString(name) {
		return apperr.Field(field, "a claim name is a letter or _ then up to 63 letters, digits or _")
	}
	p, ok := v.(map[string]any)
	if !ok {
		return apperr.Field(field, "must be an object")
	}
	if err := onlyKeys(p, field, "type", "description"); err != nil {
		return err
	}
	if p["type"] != "boolean" {
		return apperr.Field(field+".type", "must be \"boolean\"")
	}
	// GitBook's schema requires a description on every claim (it is what
	// template conditions show).
	if d, isString := p["description"].(string); !isString || d == "" {
		return apperr.Field(field+".description", "a claim needs a description (a non-empty string)")
	}
	return nil
}

func onlyKeys(m map[string]any, field string, allowed ...string) error {
	for k := range m {
		found := false
		for _, a := range allowed {
			found = found || a == k
		}
		if !found {
			return apperr.Field(field+"."+k, "is not allowed here")
		}
	}
	return nil
}
