package orgs

import (
	"sort"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/store"
)

// scope names one list for the page-token signer: the operation, the
// partition it reads and every filter, sort and order, each quoted so that
// no two lists share a scope.
func scope(op string, parts ...string) string {
	var b strings.Builder
	b.WriteString(op)
	for _, p := range parts {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(p))
	}
	return b.String()
}

// memoryPage pages a list built in memory. items must be sorted by key in
// the list's order (descending when desc) and keys must be unique; a page
// token carries the key of the last item of its page, so a page resumes
// after that item even when items were added or removed in between.
type memoryPage struct {
	s     *Service
	scope string
	p     httpapi.ListParams
}

// after returns the position a page token resumes after ("" from the start).
func (mp memoryPage) after() (string, error) {
	k, err := mp.s.d.Pager.Key(mp.scope, mp.p.Page)
	if err != nil || k == nil {
		return "", err
	}
	return k.SK, nil
}

// window returns the page of items after the token's position and the next
// page, if any.
func window[T any](mp memoryPage, items []T, key func(T) string, desc bool) ([]T, *httpapi.NextPage, error) {
	after, err := mp.after()
	if err != nil {
		return nil, nil, err
	}
	start := 0
	if after != "" {
		start = sort.Search(len(items), func(i int) bool {
			if desc {
				return key(items[i]) < after
			}
			return key(items[i]) > after
		})
	}
	end := min(start+mp.p.Size(), len(items))
	page := items[start:end]
	var next *httpapi.NextPage
	if end < len(items) {
		next = mp.s.d.Pager.Next(mp.scope, &store.Key{PK: "memory", SK: key(items[end-1])})
	}
	return page, next, nil
}

// sortBy sorts items by key, descending when desc.
func sortBy[T any](items []T, key func(T) string, desc bool) {
	sort.SliceStable(items, func(i, j int) bool {
		if desc {
			return key(items[i]) > key(items[j])
		}
		return key(items[i]) < key(items[j])
	})
}
