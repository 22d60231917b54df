// Package apperr holds the few error kinds that services return. Each kind
// has one HTTP meaning; the mapping to statuses lives in package httpapi.
package apperr

import (
	"errors"
	"fmt"
)

// Kind classifies an error for callers.
type Kind string

// The kinds.
const (
	Invalid      Kind = "invalid"      // the request breaks a rule (400)
	Unauthorized Kind = "unauthorized" // no valid credentials (401)
	Forbidden    Kind = "forbidden"    // known caller, not allowed (403)
	NotFound     Kind = "not_found"    // no such resource, or not visible to the caller (404)
	Conflict     Kind = "conflict"     // the resource's state forbids it (409)
	TooLarge     Kind = "too_large"    // the request is too big (413)
	Unavailable  Kind = "unavailable"  // a dependency is throttling or failing for now; try later (503, Retry-After)
	Internal     Kind = "internal"     // anything else (500)
)

// Error is an error of a known kind with a message fit for the caller.
type Error struct {
	Kind    Kind
	Message string
	// Field names the request field at fault, for Invalid errors.
	Field string
}

func (e *Error) Error() string {
	if e.Field != "" {
		return e.Field + ": " + e.Message
	}
	return e.Message
}

// New returns an error of kind with a formatted message.
func New(kind Kind, format string, args ...any) error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// Field returns an Invalid error naming field.
func Field(field, format string, args ...any) error {
	return &Error{Kind: Invalid, Field: field, Message: fmt.Sprintf(format, args...)}
}

// NotFoundf returns a NotFound error.
func NotFoundf(format string, args ...any) error { return New(NotFound, format, args...) }

// Forbiddenf returns a Forbidden error.
func Forbiddenf(format string, args ...any) error { return New(Forbidden, format, args...) }

// Conflictf returns a Conflict error.
func Conflictf(format string, args ...any) error { return New(Conflict, format, args...) }

// KindOf returns the kind of err, Internal when it has none.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// Is reports whether err is of kind k.
func Is(err error, k Kind) bool { return err != nil && KindOf(err) == k }
