package sites

import (
	"sort"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/store"
)

// scope names one list for the page-token signer: the operation, the site
// and every filter, each quoted so that no two lists share a scope.
func scope(op string, parts ...string) string {
	var b strings.Builder
	b.WriteString(op)
	for _, p := range parts {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(p))
	}
	return b.String()
}

// window cuts one page out of a list built in memory, sorted by key (keys
// unique and ascending). A page token carries the key of the last item of
// its page, so the next page resumes after that item even when items were
// added, removed or moved in between.
func window[T any](pager *httpapi.Pager, sc string, p httpapi.ListParams, items []T, key func(T) string) ([]T, *httpapi.NextPage, error) {
	after, err := pager.Key(sc, p.Page)
	if err != nil {
		return nil, nil, err
	}
	start := 0
	if after != nil {
		start = sort.Search(len(items), func(i int) bool { return key(items[i]) > after.SK })
	}
	end := min(start+p.Size(), len(items))
	var next *httpapi.NextPage
	if end < len(items) {
		next = pager.Next(sc, &store.Key{PK: "memory", SK: key(items[end-1])})
	}
	return items[start:end], next, nil
}
