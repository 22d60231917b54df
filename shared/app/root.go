package app

import (
	"fmt"
	"reflect"

	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/users"
)

// Root is a process's composition root: it builds each family's service
// once, from the process's dependencies, and hands it to the families that
// use it (their constructors take it). A Lambda function's root builds only
// what its family asks (the providers of package wire and the family's
// package of roots); local mode's builds every family's, once. So each
// cache a service keeps (the users' tokens, the spaces' decoded records,
// the tree index manifests...) exists once per process.
//
// A process assembles its services at start, on one goroutine: a Root is
// not safe for concurrent use.
type Root struct {
	Deps *deps.Deps
	// built are the services by type; asked the optional ones looked up
	// before any was provided; building those under construction (a cycle
	// of providers is a bug, reported at start).
	built    map[reflect.Type]any
	asked    map[reflect.Type]bool
	building map[reflect.Type]bool
	order    []reflect.Type
}

// NewRoot returns the empty root of a process over d.
func NewRoot(d *deps.Deps) *Root {
	return &Root{Deps: d, built: map[reflect.Type]any{}, asked: map[reflect.Type]bool{}, building: map[reflect.Type]bool{}}
}

// Service returns the root's service of type T, made by build on the first
// ask: each type of service is built once per root.
func Service[T any](r *Root, build func() T) T {
	t := reflect.TypeFor[T]()
	if v, ok := r.built[t]; ok {
		return v.(T)
	}
	if r.asked[t] {
		panic(fmt.Sprintf("app: %v is provided after a service was built without it: provide it first (the family's routes list its providers first)", t))
	}
	if r.building[t] {
		panic(fmt.Sprintf("app: %v depends on itself", t))
	}
	r.building[t] = true
	v := build()
	delete(r.building, t)
	r.built[t] = v
	r.order = append(r.order, t)
	return v
}

// Optional returns the root's T if a provider built it (Service), else T's
// zero value: what a service uses only when its process links the family
// providing it (content's OpenAPI specs; the comments posted with reviews).
// Providing T after it was looked up in vain panics, so that a process
// does not hold services built with and without it.
func Optional[T any](r *Root) T {
	t := reflect.TypeFor[T]()
	if v, ok := r.built[t]; ok {
		return v.(T)
	}
	r.asked[t] = true
	var zero T
	return zero
}

// Built lists the types the root built, in the order it built them.
func (r *Root) Built() []string {
	out := make([]string, len(r.order))
	for i, t := range r.order {
		out[i] = t.String()
	}
	return out
}

// Users is the process's users service: every API authenticates its
// callers with it (NewAPI), so every function links it.
func Users(r *Root) *users.Service {
	return Service(r, func() *users.Service { return users.New(r.Deps) })
}

// Close releases what the root's services hold beyond the process's memory
// (the search service's index directories on disk): it calls Close on each
// built service that has one, the last built first. Local mode closes its
// root when it stops; a Lambda function's process ends with its sandbox.
func (r *Root) Close() {
	for i := len(r.order) - 1; i >= 0; i-- {
		if c, ok := r.built[r.order[i]].(interface{ Close() }); ok {
			c.Close()
		}
	}
}
