package decode

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHasPreviewsAsFields: HasPreviews answers as the copy Fields returns
// does (a tensor column or one of encoded images), for every Arrow file of
// testdata that opens, with files of both answers among them.
func TestHasPreviewsAsFields(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[bool]int{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Open(filepath.Base(path), data)
		if err != nil {
			continue // not_arrow.arrow and other broken files
		}
		want := false
		for _, fld := range f.Fields() {
			want = want || fld.Tensor != nil || fld.Images
		}
		if got := f.HasPreviews(); got != want {
			t.Errorf("%s: HasPreviews %v, Fields say %v", path, got, want)
		}
		seen[want]++
		f.Close()
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("files with previews and without: %v; want some of each", seen)
	}
}
