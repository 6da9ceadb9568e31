package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is the repository's directory relative to the working directory
// ("../.." in app/decode): the first directory from there up that holds
// go.mod ("." when none does).
func root() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(wd, dir)
			if err != nil {
				return "."
			}
			return rel
		}
		if filepath.Dir(dir) == dir {
			return "."
		}
	}
}

// InteropDir is the interop corpus's directory, shared/interop beside the
// repository's, relative to the working directory
// ("../../../shared/interop" in app/decode).
func InteropDir() string {
	return filepath.Join(root(), "..", "shared", "interop")
}

// DataFile reports whether path is an Arrow or Parquet data file rather
// than a script, a README or an integration JSON twin.
func DataFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".py", ".js", ".mjs", ".gz", ".json", ".txt":
		return false
	}
	return true
}

// InteropFiles lists the data files of the interop corpus; it fails tb
// when the corpus is missing or holds fewer than 50.
func InteropFiles(tb testing.TB) []string {
	tb.Helper()
	var files []string
	err := filepath.WalkDir(InteropDir(), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && DataFile(path) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("the interop corpus must be beside the repository: %v", err)
	}
	if len(files) < 50 {
		tb.Fatalf("found only %d interop files", len(files))
	}
	return files
}

// Seeds lists the data files of at most max bytes of the interop corpus
// and of the repository's testdata (relative to the working directory) (its node_modules left out): small
// files that cover every layout, for fuzz seeds. It fails tb when there
// are fewer than 20.
func Seeds(tb testing.TB, max int64) []string {
	tb.Helper()
	var out []string
	for _, dir := range []string{InteropDir(), filepath.Join(root(), "testdata")} {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !DataFile(path) || strings.Contains(path, "node_modules") {
				return nil
			}
			if info, err := d.Info(); err == nil && info.Size() <= max {
				out = append(out, path)
			}
			return nil
		})
	}
	if len(out) < 20 {
		tb.Fatalf("only %d seed files: the interop corpus must be beside the repository", len(out))
	}
	return out
}
