package decode

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// interopDir holds Arrow files written by other implementations, shared by
// the project (see its README).
const interopDir = "../../../shared/interop"

// dataFile reports whether path is an Arrow or Parquet data file rather than
// a script, a README or an integration JSON twin.
func dataFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".py", ".js", ".mjs", ".gz", ".json", ".txt":
		return false
	}
	return true
}

func interopFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(interopDir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && dataFile(path) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the interop corpus must be beside the repository: %v", err)
	}
	if len(files) < 50 {
		t.Fatalf("found only %d interop files", len(files))
	}
	return files
}

// TestInteropCorpusOpens opens every file of the corpus through the viewer's
// decode path: each either opens with every cell decoded, or fails with a
// specific error; nothing panics.
func TestInteropCorpusOpens(t *testing.T) {
	opened, failed := 0, 0
	for _, path := range interopFiles(t) {
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
					cell := f.Cell(r, c)
					if f.Fields()[c].Err == "" && strings.Contains(cell.Err, ErrPanic.Error()) {
						t.Fatalf("row %d column %q: %s", r, fld.Name, cell.Err)
					}
				}
			}
		})
	}
	t.Logf("%d files opened, %d refused with an error", opened, failed)
}
