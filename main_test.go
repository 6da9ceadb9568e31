package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestWasmHasZoneDatabase: the wasm embeds time/tzdata, so that filters on
// timestamps of a named zone bind in a browser (e2e TestQueryTypes,
// tsparis).
func TestWasmHasZoneDatabase(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if !slices.Contains(strings.Fields(string(out)), "time/tzdata") {
		t.Error("the wasm build does not import time/tzdata: LoadLocation(\"Europe/Paris\") fails in the browser")
	}
}
