package families_test

import (
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/deps"
)

// BenchmarkNewAPI builds each family's API as a Lambda function does at
// start-up (lazy: operations are built on their first request) beside the
// eager build that tests and the generated document use.
func BenchmarkNewAPI(b *testing.B) {
	for _, f := range families.All() {
		for _, mode := range []struct {
			name string
			lazy bool
		}{{"eager", false}, {"lazy", true}} {
			b.Run(f.Name+"/"+mode.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					app.NewAPI(app.Config{Lazy: mode.lazy}, app.NewRoot(&deps.Deps{}), f)
				}
			})
		}
	}
}
