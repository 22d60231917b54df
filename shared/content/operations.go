package content

import "context"

// OperationDetail is an OpenAPI operation as readers show it: what a
// computed API page's openapi-operation block points at.
type OperationDetail struct {
	Method, Path, Summary, Description string
	Deprecated                         bool
	Parameters                         []OperationParameter
	RequestBody                        *OperationBody
	Responses                          []OperationResponse
}

// OperationParameter is a parameter of an operation; Type is its schema's
// type or the name of the schema it refers to; Example the spec's example
// of it (JSON, or the text as is), if any.
type OperationParameter struct {
	Name, In, Type, Description string
	Required                    bool
	Example                     string
}

// OperationBody is an operation's request body.
type OperationBody struct {
	Description  string
	Required     bool
	ContentTypes []string
	Schema       string
	SchemaDetail
}

// OperationResponse is one response of an operation.
type OperationResponse struct {
	Status, Description string
	ContentTypes        []string
	Schema              string
	SchemaDetail
}

// SchemaDetail is what a body's schema (of its first content type) shows:
// its fields, depth first, and an example (the spec's, else one made from
// the schema; Generated says which), both bounded.
type SchemaDetail struct {
	Fields []SchemaField
	// FieldsCut: the schema has more fields than are listed.
	FieldsCut bool
	Example   string
	Generated bool
}

// SchemaField is a property of a schema: Path names it from the top
// (a.b, an array's items as a[].b), Depth is its nesting (0 at the top).
type SchemaField struct {
	Path, Name, Type, Description string
	Required                      bool
	Depth                         int
}

// Operations answers a lookup of the operations of one of the
// organization's specs (by slug, id or URL), as the content at at may show
// them: the read level on the space is checked and the spec read once (on
// the content's behalf), for every operation a page shows. The lookup is
// nil when the spec is unknown, or without specs.
func (s *Service) Operations(ctx context.Context, at At, specRef string) (func(method, path string) *OperationDetail, error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return nil, err
	}
	if s.specs == nil {
		return nil, nil
	}
	spec, ok, err := s.specs.FindSpec(ctx, src.space.OrgID, specRef)
	if err != nil || !ok {
		return nil, err
	}
	return s.specs.SpecOperationReader(ctx, spec)
}
