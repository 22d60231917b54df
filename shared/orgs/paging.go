package orgs

import "sort"

// sortBy sorts items by key, descending when desc, for paging.Window.
func sortBy[T any](items []T, key func(T) string, desc bool) {
	sort.SliceStable(items, func(i, j int) bool {
		if desc {
			return key(items[i]) > key(items[j])
		}
		return key(items[i]) < key(items[j])
	})
}
