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
	// Servers are where the operation is served: the operation's
	// servers, else its path's, else the document's (Swagger 2.0: its
	// schemes, host and basePath), as absolute http(s) URL templates
	// (a relative URL resolved against the document's source URL; one
	// that cannot be is left out).
	Servers []OperationServer
	// Security lists the alternatives of credentials the operation
	// accepts (OpenAPI's security requirements: the operation's, else the
	// document's), each naming the schemes used together; an empty
	// alternative means none is needed.
	Security [][]SecurityScheme
}

// OperationServer is a server of an operation: a URL template whose
// {variables} are given by Variables.
type OperationServer struct {
	URL, Description string
	Variables        []ServerVariable
}

// ServerVariable is a variable of a server's URL template: its default,
// and the values it may take when the spec lists them.
type ServerVariable struct {
	Name, Default, Description string
	Enum                       []string
}

// SecurityScheme is a security scheme of a spec (components'
// securitySchemes; Swagger 2.0's securityDefinitions, read as OpenAPI
// 3's): Type is http, apiKey, oauth2, openIdConnect or mutualTLS; Scheme
// http's (bearer, basic); In and Param where an apiKey goes (header,
// query or cookie) and its name.
type SecurityScheme struct {
	Name, Type, Scheme, In, Param, Description string
}

// OperationParameter is a parameter of an operation; Type is its schema's
// type or the name of the schema it refers to; Example the spec's example
// of it (JSON, or the text as is), if any.
type OperationParameter struct {
	Name, In, Type, Description string
	Required                    bool
	Example                     string
	// Default is its schema's default (as Example is written), if any.
	Default string
}

// OperationBody is an operation's request body.
type OperationBody struct {
	Description  string
	Required     bool
	ContentTypes []string
	Schema       string
	SchemaDetail
	// Sample is the body a reader may send (the API playground's): the
	// example whole, as SchemaDetail's Example but bounded higher; "" when
	// there is none or it is longer than that bound.
	Sample string
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

// SpecVersions names the version each of the organization's specs refs
// name is at, as the content at at would show it: "<spec id>@<latest
// version id>" ("<spec id>@" before its first version), "" for a ref that
// names no spec. The reader's ETags hash them, so that a page showing a
// spec's operations changes with the spec. The read level on the space is
// checked, as for Operations; without specs every ref names none.
func (s *Service) SpecVersions(ctx context.Context, at At, refs []string) (map[string]string, error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(refs))
	for _, ref := range refs {
		if _, done := out[ref]; done {
			continue
		}
		if s.specs == nil {
			out[ref] = ""
			continue
		}
		spec, ok, err := s.specs.FindSpec(ctx, src.space.OrgID, ref)
		if err != nil {
			return nil, err
		}
		if ok {
			out[ref] = spec.ID + "@" + spec.LastVersion
		} else {
			out[ref] = ""
		}
	}
	return out, nil
}
