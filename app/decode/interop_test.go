package decode

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensorview/tensorview/internal/testkit"
)

// interopDir holds Arrow files written by other implementations, shared by
// the project (see its README).
var interopDir = testkit.InteropDir()

// TestInteropCorpusOpens opens every file of the corpus through the viewer's
// decode path: each either opens with every value (and tensor, image)
// read, or fails with a specific error; nothing panics.
func TestInteropCorpusOpens(t *testing.T) {
	opened, failed := 0, 0
	for _, path := range testkit.InteropFiles(t) {
		rel, _ := filepath.Rel(interopDir, path)
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Open(filepath.Base(path), data)
			if err != nil {
				failed++
				if errors.Is(err, ErrPanic) {
					t.Fatalf("panic while opening: %v", err)
				}
				t.Logf("error (expected for some files): %v", err)
				return
			}
			defer f.Close()
			opened++
			for c, fld := range f.Fields() {
				if fld.Err != "" {
					t.Logf("column %q: %s", fld.Name, fld.Err)
				}
				rows, exact := f.Rows()
				if !exact {
					t.Fatalf("row count of a small file not exact after Open")
				}
				for r := int64(0); r < rows; r++ {
					if got := describeValue(f, r, c); f.Fields()[c].Err == "" && strings.Contains(got, ErrPanic.Error()) {
						t.Fatalf("row %d column %q: %s", r, fld.Name, got)
					}
				}
			}
		})
	}
	t.Logf("%d files opened, %d refused with an error", opened, failed)
}
