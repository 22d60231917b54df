package families_test

import (
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/deps"
)

func BenchmarkNewAPI(b *testing.B) {
	for _, f := range families.All() {
		b.Run(f.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				app.NewAPI(app.Config{}, &deps.Deps{}, f)
			}
		})
	}
}
