package session

import (
	"os"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
)

// openTestdata opens testdata/name, closed when the test ends.
func openTestdata(t *testing.T, name string) *decode.File {
	t.Helper()
	data, err := os.ReadFile("../../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := decode.Open(name, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

// column is the index of f's field name.
func column(t *testing.T, f *decode.File, name string) int {
	t.Helper()
	for i, fld := range f.Fields() {
		if fld.Name == name {
			return i
		}
	}
	t.Fatalf("%s has no field %s", f.Name, name)
	return -1
}
