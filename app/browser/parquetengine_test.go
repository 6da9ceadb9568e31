//go:build !wasm

package browser

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tensorview/tensorview/app/site"
)

// vendored runs `make vendor` (web/parquet/: the engine's bundle and
// parquet-wasm, which the worker imports) and returns the web directory.
// Without node or testdata/node_modules it skips, unless TENSORVIEW_FULL is
// set (make test sets it: nothing skips there).
func vendored(t *testing.T) string {
	t.Helper()
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not on PATH"
	} else if _, err := os.Stat(filepath.Join("..", "..", "testdata", "node_modules", "hyparquet")); err != nil {
		missing = "testdata/node_modules is missing"
	}
	if missing != "" {
		if os.Getenv("TENSORVIEW_FULL") == "" {
			t.Skip(missing + ": the Parquet worker runs in Node.js with npm's packages (make test installs them)")
		}
		t.Fatal(missing + ": the Parquet worker runs in Node.js with npm's packages (run `make testdata/node_modules`; make test does)")
	}
	cmd := exec.Command("make", "--no-print-directory", "vendor")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make vendor: %v\n%s", err, out)
	}
	web, err := filepath.Abs(filepath.Join("..", "..", "web"))
	if err != nil {
		t.Fatal(err)
	}
	return web
}

// TestParquetEngineOnDemand: every file of the engine's bundle is one the
// service worker keeps once fetched (site.OnDemand), and every one it
// lists under web/parquet/ exists.
func TestParquetEngineOnDemand(t *testing.T) {
	web := vendored(t)
	built, err := filepath.Glob(filepath.Join(web, "parquet", "engine", "*.js"))
	if err != nil || len(built) == 0 {
		t.Fatalf("no bundle in web/parquet/engine: %v", err)
	}
	for _, f := range built {
		if p := "/web/parquet/engine/" + filepath.Base(f); !slices.Contains(site.OnDemand, p) {
			t.Errorf("%s is not in site.OnDemand", p)
		}
	}
	for _, p := range site.OnDemand {
		if !strings.HasPrefix(p, "/web/parquet/") {
			continue // not made by make vendor (web/tzdata.zip: make wasm)
		}
		if _, err := os.Stat(filepath.Join(web, strings.TrimPrefix(p, "/web/"))); err != nil {
			t.Errorf("site.OnDemand lists %s: %v", p, err)
		}
	}
}

// runNode runs a script of testdata/ (where its npm packages are) and
// returns its standard output.
func runNode(t *testing.T, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("node", args...)
	cmd.Dir = filepath.Join("..", "..", "testdata")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s\n%s", strings.Join(args, " "), err, stderr.Bytes(), out)
	}
	return out
}

// conformanceResult is one file of testdata/parquet_conformance.mjs's
// output.
type conformanceResult struct {
	File       string `json:"file"`
	Engine     string `json:"engine"`
	Declined   string `json:"declined"`
	Checks     int    `json:"checks"`
	Mismatches []struct {
		What      string `json:"what"`
		Hyparquet string `json:"hyparquet"`
		Wasm      string `json:"wasm"`
	} `json:"mismatches"`
	Errors []struct {
		What      string `json:"what"`
		Hyparquet string `json:"hyparquet"`
		Wasm      string `json:"wasm"`
		Trapped   bool   `json:"trapped"`
	} `json:"errors"`
	Ranges [][2]int64 `json:"ranges"`
}

// TestParquetEngineConformance reads every Parquet file of testdata/ and
// ../shared/interop/, and the ones testdata/parquet_conformance_gen.mjs
// writes (a Hugging Face image set, bench/browser's tensor layout, every
// integer width, strings, binaries, nested lists and structs, nulls, each
// codec; timestamps of every unit and time zone, dates, times, durations,
// dictionaries, decimals, float16 and fixed-size binaries, written by
// arrow-rs and by hyparquet-writer, with and without ARROW:schema, in the
// page encodings hyparquet decodes), with the page's Parquet worker
// (web/parquet-worker.js in Node.js) twice: as the page reads them
// (hyparquet bridged to Arrow IPC, app/browser/parquetengine.js) and with
// parquet-wasm, the engine it replaces. Everything must be the same
// (testdata/parquet_conformance.mjs compares the footers, the Arrow
// schemas with their field metadata, and every value of every row group,
// of windows of rows and of each column alone, decoded by apache-arrow,
// and the bytes of fixed-width values); the files the engine declines are
// the ones listed here, for the reason given; the broken files fail where
// they should, with both engines.
func TestParquetEngineConformance(t *testing.T) {
	web := vendored(t)
	gen := t.TempDir()
	runNode(t, "parquet_conformance_gen.mjs", gen)
	var files []string
	for _, root := range []string{filepath.Join("..", "..", "testdata"), filepath.Join("..", "..", "..", "shared", "interop"), gen} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".parquet") {
				abs, err := filepath.Abs(path)
				files = append(files, abs)
				return err
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 25 {
		t.Fatalf("found %d Parquet files, want the corpus's and the generator's (25 or more)", len(files))
	}
	var out struct {
		Files []conformanceResult `json:"files"`
	}
	if err := json.Unmarshal(runNode(t, append([]string{"parquet_conformance.mjs", web}, files...)...), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != len(files) {
		t.Fatalf("%d results for %d files", len(out.Files), len(files))
	}
	// The files the engine declines, and why.
	declines := map[string]string{
		"declined.parquet":      `column "tags": a Parquet group read as map`,
		"declined_unit.parquet": `column "when": timestamp of another unit than ARROW:schema's`,
	}
	var read, declined, checks int
	for _, r := range out.Files {
		name := filepath.Base(r.File)
		checks += r.Checks
		for _, m := range r.Mismatches {
			t.Errorf("%s: %s: hyparquet %s, parquet-wasm %s", r.File, m.What, m.Hyparquet, m.Wasm)
		}
		switch name {
		case "parquet_encrypted.parquet":
			if len(r.Errors) != 1 || r.Errors[0].What != "open" || !strings.Contains(r.Errors[0].Hyparquet, "encrypted") || !strings.Contains(r.Errors[0].Wasm, "encrypted") {
				t.Errorf("%s: errors %+v, want both engines to refuse it at open as encrypted", name, r.Errors)
			}
			continue
		case "parquet_corrupt_rowgroup.parquet", "parquet_lzo.parquet":
			// The corrupt row group (2), and reads of the LZO column
			// (name, or all columns), trap parquet-wasm; hyparquet fails on
			// them too and hands them to parquet-wasm.
			want := []string{`"rowGroup":2,`}
			if name == "parquet_lzo.parquet" {
				want = []string{`"columns":null`, `"columns":["name"]`}
			}
			if len(r.Errors) == 0 {
				t.Errorf("%s: no read failed", name)
			}
			for _, e := range r.Errors {
				if !slices.ContainsFunc(want, func(w string) bool { return strings.Contains(e.What, w) }) || !e.Trapped || e.Hyparquet != e.Wasm {
					t.Errorf("%s: %+v, want only reads with %s to fail, as parquet-wasm's trap", name, e, want)
				}
			}
		default:
			for _, e := range r.Errors {
				t.Errorf("%s: %s failed: hyparquet %q, parquet-wasm %q", r.File, e.What, e.Hyparquet, e.Wasm)
			}
		}
		if r.Checks == 0 {
			t.Errorf("%s: nothing compared", r.File)
		}
		if want, ok := declines[name]; ok {
			declined++
			if r.Engine != "parquet-wasm" || r.Declined != want {
				t.Errorf("%s: read by %s (declined %q), want declined: %q", name, r.Engine, r.Declined, want)
			}
			continue
		}
		read++
		if r.Engine != "hyparquet" {
			t.Errorf("%s: read by %s, declined: %s", r.File, r.Engine, r.Declined)
		}
		if size := fileSize(t, r.File); len(r.Ranges) != 1 || r.Ranges[0] != [2]int64{max(0, size-64<<10), size} {
			t.Errorf("%s: opening it read %v, want its tail, once", name, r.Ranges)
		}
	}
	t.Logf("%d files: %d read by hyparquet, %d declined (parquet-wasm), %d comparisons", len(files), read, declined, checks)
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestParquetEngineRequests checks the byte ranges the page's Parquet
// worker asks for, for a file by URL (testdata/parquet_requests.mjs, which
// writes its files: an image set without a page index, a file whose footer
// is larger than the first read of its tail, tensors with a page index):
// the footer in one read of the tail (two when it is larger), a column's
// chunks only, nothing again for the next window of a row group, and with
// a page index only the pages that hold a window's rows.
func TestParquetEngineRequests(t *testing.T) {
	web := vendored(t)
	cmd := exec.Command("node", "parquet_requests.mjs", web, t.TempDir())
	cmd.Dir = filepath.Join("..", "..", "testdata")
	out, err := cmd.Output()
	var checks []struct {
		Name   string          `json:"name"`
		OK     bool            `json:"ok"`
		Detail json.RawMessage `json:"detail"`
	}
	if jerr := json.Unmarshal(out, &checks); jerr != nil {
		t.Fatalf("node parquet_requests.mjs: %v, %v\n%s", err, jerr, out)
	}
	var names []string
	for _, c := range checks {
		names = append(names, c.Name)
		if !c.OK {
			t.Errorf("%s: %s", c.Name, c.Detail)
		}
	}
	if len(checks) < 9 || err != nil && !t.Failed() {
		t.Errorf("checks %q, error %v", names, err)
	}
	if !slices.Contains(names, "paged: a window reads only the pages that hold its rows") {
		t.Errorf("no page index check in %q", names)
	}
}
