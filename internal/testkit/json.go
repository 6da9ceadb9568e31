package testkit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestdataJSON reads the repository's testdata/name, a JSON file of
// expected values, into v; a file that is missing or does not parse fails
// the test.
func TestdataJSON(tb testing.TB, name string, v any) {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(root(), "testdata", name))
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		tb.Fatal(err)
	}
}
