package decode

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLegacyCompression: Arrow 0.17 Feather files whose compression is
// announced only in custom metadata (R's golden files, lz4 and zstd) show
// exactly the values of their uncompressed twin, cell by cell, instead of
// their compressed bytes (once column b showed 4e-323 where the twin holds 2).
func TestLegacyCompression(t *testing.T) {
	dir := filepath.Join(interopDir, "arrow")
	read := func(name string) *File {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		f, err := Open(name, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return f
	}
	want := read("r__tests__testthat__golden-files__data-arrow_0.17.0_uncompressed.feather")
	rows, _ := want.Rows()
	if rows == 0 || len(want.Fields()) < 3 {
		t.Fatalf("twin has %d rows, %d columns", rows, len(want.Fields()))
	}
	if got := valueText(want, 0, 1); got != "2" {
		t.Fatalf("twin: column b = %q, want 2", got)
	}
	for _, name := range []string{
		"r__tests__testthat__golden-files__data-arrow_0.17.0_lz4.feather",
		"r__tests__testthat__golden-files__data-arrow_0.17.0_zstd.feather",
	} {
		f := read(name)
		if n, _ := f.Rows(); n != rows || len(f.Fields()) != len(want.Fields()) {
			t.Fatalf("%s: %d rows × %d columns, want %d × %d", name, n, len(f.Fields()), rows, len(want.Fields()))
		}
		for c := range f.Fields() {
			if f.Fields()[c].Err != "" {
				t.Errorf("%s column %q: %s", name, f.Fields()[c].Name, f.Fields()[c].Err)
			}
			for r := int64(0); r < rows; r++ {
				got, exp := describeValue(f, r, c), describeValue(want, r, c)
				if got != exp || strings.HasPrefix(got, "error ") {
					t.Errorf("%s row %d column %q: %s, want %s", name, r, f.Fields()[c].Name, got, exp)
				}
			}
		}
	}
	// pyarrow's own file of this kind: test_feather.py expects the table
	// {"a": range(5)}.
	f := read("python__pyarrow__tests__data__feather__v0.17.0.version.2-compression.lz4.feather")
	if n, _ := f.Rows(); n != 5 || len(f.Fields()) != 1 || f.Fields()[0].Name != "a" {
		t.Fatalf("pyarrow file: %d rows, fields %+v", n, f.Fields())
	}
	for r := int64(0); r < 5; r++ {
		if got := valueText(f, r, 0); got != fmt.Sprint(r) {
			t.Errorf("pyarrow file row %d: %q", r, got)
		}
	}
}
