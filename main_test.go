package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestWasmHasZoneDatabase: the wasm gets the zone database from
// internal/tzload (web/tzdata.zip, fetched when first needed), so that
// timestamps of a named zone show and filter in a browser (e2e
// TestTimeZonesOnDemand, TestQueryTypes' tsparis), and does not embed
// time/tzdata (0.41 MB).
func TestWasmHasZoneDatabase(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/tensorview/tensorview/internal/tzload") {
		t.Error("the wasm build does not import internal/tzload: LoadLocation(\"Europe/Paris\") fails in the browser")
	}
	if slices.Contains(deps, "time/tzdata") {
		t.Error("the wasm build embeds time/tzdata, which internal/tzload fetches instead")
	}
}
