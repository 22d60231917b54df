package openapispecs_test

import (
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// A spec's life on both storage backends: created, processed, updated
// with a changed document, listed, versions newest first, deleted.
func TestSpecLifecycleOnBothBackends(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		ds := newDocServer(t, petstore)
		c := f.as(t, f.creator)
		src := map[string]any{"source": map[string]any{"url": ds.URL + "/openapi.yaml"}}
		c.Expect(http.StatusCreated, "PUT", f.base()+"/pets", src)
		f.work(t)
		ds.set(petstoreV2)
		c.Expect(http.StatusOK, "PUT", f.base()+"/pets", src)
		f.work(t)
		var versions struct {
			Count int
			Items []struct{ ID string }
		}
		c.Expect(http.StatusOK, "GET", f.base()+"/pets/versions", nil).JSON(t, &versions)
		sp := c.Expect(http.StatusOK, "GET", f.base()+"/pets", nil).Map(t)
		if versions.Count != 2 || sp["lastVersion"] != versions.Items[0].ID || sp["processingState"] != "complete" {
			t.Fatalf("versions %+v, spec %v", versions, sp)
		}
		var list struct{ Count int }
		c.Expect(http.StatusOK, "GET", f.base(), nil).JSON(t, &list)
		if list.Count != 1 {
			t.Errorf("%d specs listed", list.Count)
		}
		c.Expect(http.StatusResetContent, "DELETE", f.base()+"/pets", nil)
		c.Expect(http.StatusNotFound, "GET", f.base()+"/pets/versions/"+versions.Items[1].ID, nil)
	})
}
