// Package cdn is the port to the CDN in front of the reader (CloudFront in
// AWS, docs/reader.md "CDN"): the families that change what published
// pages show tell it which paths to stop serving from its copies. The
// CloudFront adapter is cdn/cloudfrontcdn; a process without a CDN (local
// mode by default, tests) has none (a nil CDN in deps.Deps).
package cdn

import (
	"context"
	"slices"
)

// CDN drops the copies a CDN keeps of published paths.
type CDN interface {
	// Invalidate asks the CDN to stop serving its copies of paths (paths
	// of requests as the CDN's origin sees them, from "/"; a trailing "*"
	// is a wildcard). ref names the change that made them stale: the same
	// change gives the same ref, so a retried call is one invalidation
	// (CloudFront's caller reference).
	Invalidate(ctx context.Context, ref string, paths []string) error
}

// Paths returns paths sorted and without duplicates, so that one change
// always asks the same batch (a batch is compared whole with a caller
// reference already used).
func Paths(paths []string) []string {
	out := slices.Clone(paths)
	slices.Sort(out)
	return slices.Compact(out)
}
