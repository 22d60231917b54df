package scim

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// Schema URNs (RFC 7643 §8.7, RFC 7644 §3).
const (
	UserSchema   = "urn:ietf:params:scim:schemas:core:2.0:User"
	GroupSchema  = "urn:ietf:params:scim:schemas:core:2.0:Group"
	ListSchema   = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
	PatchSchema  = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
	ErrorSchema  = "urn:ietf:params:scim:api:messages:2.0:Error"
	configSchema = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"
	typeSchema   = "urn:ietf:params:scim:schemas:core:2.0:ResourceType"
	schemaSchema = "urn:ietf:params:scim:schemas:core:2.0:Schema"
)

// Meta is a resource's meta attribute.
type Meta struct {
	ResourceType string    `json:"resourceType"`
	Created      time.Time `json:"created"`
	LastModified time.Time `json:"lastModified"`
	Location     string    `json:"location"`
}

// Ref is a reference to another resource: a user's group, a group's member.
type Ref struct {
	Value   string `json:"value"`
	Ref     string `json:"$ref,omitempty"`
	Display string `json:"display,omitempty"`
	Type    string `json:"type,omitempty"`
}

// User is a member as a SCIM User.
type User struct {
	Schemas     []string          `json:"schemas"`
	ID          string            `json:"id"`
	ExternalID  string            `json:"externalId,omitempty"`
	UserName    string            `json:"userName"`
	Name        *model.SCIMName   `json:"name,omitempty"`
	DisplayName string            `json:"displayName,omitempty"`
	Emails      []model.SCIMEmail `json:"emails,omitempty"`
	Active      bool              `json:"active"`
	Groups      []Ref             `json:"groups,omitempty"`
	Meta        Meta              `json:"meta"`
}

// Group is a team as a SCIM Group.
type Group struct {
	Schemas     []string `json:"schemas"`
	ID          string   `json:"id"`
	ExternalID  string   `json:"externalId,omitempty"`
	DisplayName string   `json:"displayName"`
	Members     []Ref    `json:"members"`
	Meta        Meta     `json:"meta"`
}

// ListResponse is a page of resources (RFC 7644 §3.4.2).
type ListResponse[T any] struct {
	Schemas      []string `json:"schemas"`
	TotalResults int      `json:"totalResults"`
	StartIndex   int      `json:"startIndex"`
	ItemsPerPage int      `json:"itemsPerPage"`
	Resources    []T      `json:"Resources"`
}

// flexBool is a boolean as identity providers send it: Microsoft Entra ID
// sends active as the string "True" or "False" in PATCH values.
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	var v bool
	if err := json.Unmarshal(data, &v); err == nil {
		*b = flexBool(v)
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return errors.New("not a boolean")
	}
	switch strings.ToLower(s) {
	case "true":
		*b = true
	case "false":
		*b = false
	default:
		return errors.New("not a boolean")
	}
	return nil
}

// userInput is a User as a request gives it; read-only attributes and
// attributes Galley does not keep are ignored.
type userInput struct {
	ExternalID  *string           `json:"externalId"`
	UserName    string            `json:"userName"`
	Name        *model.SCIMName   `json:"name"`
	DisplayName string            `json:"displayName"`
	Emails      []model.SCIMEmail `json:"emails"`
	Active      *flexBool         `json:"active"`
}

// groupInput is a Group as a request gives it.
type groupInput struct {
	ExternalID  *string `json:"externalId"`
	DisplayName string  `json:"displayName"`
	Members     []Ref   `json:"members"`
}

// Error is a service error with SCIM's detail error keyword (scimType,
// RFC 7644 §3.12).
type Error struct {
	err      error
	ScimType string
}

func (e *Error) Error() string { return e.err.Error() }
func (e *Error) Unwrap() error { return e.err }

func scimErr(kind apperr.Kind, scimType, format string, args ...any) error {
	return &Error{err: apperr.New(kind, format, args...), ScimType: scimType}
}

func invalidValue(format string, args ...any) error {
	return scimErr(apperr.Invalid, "invalidValue", format, args...)
}

// ScimType returns err's scimType, "" when it has none.
func ScimType(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.ScimType
	}
	return ""
}

// decode reads a JSON object into v: invalidSyntax when it is not one.
func decode(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return scimErr(apperr.Invalid, "invalidSyntax", "the body is not a valid SCIM resource: %v", err)
	}
	return nil
}
