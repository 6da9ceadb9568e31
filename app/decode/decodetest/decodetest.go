// Package decodetest opens the repository's test files with the viewer's
// decoder, for the tests of the packages above decode (as net/http/httptest
// serves net/http's). Only tests import it.
//
// Entry points: Open (testdata/name → *decode.File, closed when the test
// ends), Column (a field's index by name).
package decodetest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
)

// root is the repository's directory: the first directory from the
// working directory up that holds go.mod.
func root(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			tb.Fatal("decodetest: no go.mod above the working directory")
		}
		dir = up
	}
}

// Open opens the repository's testdata/name with decode.Open; the file is
// closed when the test ends. A file that does not open fails the test.
func Open(tb testing.TB, name string) *decode.File {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(root(tb), "testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	f, err := decode.Open(name, data)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(f.Close)
	return f
}

// Column is the index of f's field name among f.Fields(); a name f lacks
// fails the test.
func Column(tb testing.TB, f *decode.File, name string) int {
	tb.Helper()
	for i, fld := range f.Fields() {
		if fld.Name == name {
			return i
		}
	}
	tb.Fatalf("%s has no field %q", f.Name, name)
	return -1
}
