package httpapi

import (
	"context"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
)

// Out is an answer with a body and no headers.
type Out[T any] struct{ Body T }

// Answer is what answers a service's result: the result rendered by view,
// or the service's error. A handler calls it on the service's results, as
// it calls Removed: return httpapi.Answer(ViewTeam)(s.Team(ctx, id)).
func Answer[T, V any](view func(T) V) func(T, error) (*Out[V], error) {
	return func(v T, err error) (*Out[V], error) {
		if err != nil {
			return nil, err
		}
		return &Out[V]{Body: view(v)}, nil
	}
}

// AnswerPage is Answer for a page of a list: the list of its items, each
// rendered by view.
func AnswerPage[T, V any](view func(T) V) func(paging.Page[T], error) (*Out[List[V]], error) {
	return func(p paging.Page[T], err error) (*Out[List[V]], error) {
		if err != nil {
			return nil, err
		}
		return &Out[List[V]]{Body: ListPage(p, view)}, nil
	}
}

// In binds a view that reads the request (its API URL) to ctx, for Answer
// and AnswerPage.
func In[T, V any](ctx context.Context, view func(context.Context, T) V) func(T) V {
	return func(v T) V { return view(ctx, v) }
}

// AnswerAs is Answer for a service that also returns the caller's role on
// the record, which its view shows (its permissions).
func AnswerAs[T, V any](ctx context.Context, view func(context.Context, T, model.Role) V) func(T, model.Role, error) (*Out[V], error) {
	return func(v T, role model.Role, err error) (*Out[V], error) {
		if err != nil {
			return nil, err
		}
		return &Out[V]{Body: view(ctx, v, role)}, nil
	}
}

// AnswerPageAs is AnswerAs for a page of a list: the list of its items,
// each rendered by view.
func AnswerPageAs[T, V any](ctx context.Context, view func(context.Context, T, model.Role) V) func(paging.Page[T], model.Role, error) (*Out[List[V]], error) {
	return func(p paging.Page[T], role model.Role, err error) (*Out[List[V]], error) {
		if err != nil {
			return nil, err
		}
		return AnswerPage(func(v T) V { return view(ctx, v, role) })(p, nil)
	}
}

// Created is the answer of an operation that makes a record: its API URL
// in Location, and its view.
type Created[T any] struct {
	Location string `header:"Location" doc:"API URL of the new record"`
	Body     T
}

// AnswerCreated is Answer for an operation that makes a record: its view,
// and the view's API URL (location) in Location.
func AnswerCreated[T, V any](view func(T) V, location func(V) string) func(T, error) (*Created[V], error) {
	return func(v T, err error) (*Created[V], error) {
		if err != nil {
			return nil, err
		}
		out := view(v)
		return &Created[V]{Location: location(out), Body: out}, nil
	}
}
