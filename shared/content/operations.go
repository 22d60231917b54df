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
// type or the name of the schema it refers to.
type OperationParameter struct {
	Name, In, Type, Description string
	Required                    bool
}

// OperationBody is an operation's request body.
type OperationBody struct {
	Description  string
	Required     bool
	ContentTypes []string
	Schema       string
}

// OperationResponse is one response of an operation.
type OperationResponse struct {
	Status, Description string
	ContentTypes        []string
	Schema              string
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
