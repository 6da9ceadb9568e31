package decode

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/raster"
	"github.com/tensorview/tensorview/tensorext"
)

// fuzzSeedMax is the largest interop file used as a seed: mutation of big
// inputs is slow, and the small files cover every layout.
const fuzzSeedMax = 64 << 10

// FuzzOpen runs the path a file takes in the viewer, from its bytes to what
// the page shows: OpenReader with a small cache budget and no "small file"
// shortcut (so row windows, estimated row counts and lazy indexing all run),
// Index, every cell (text, tensor summary, preview) of the first rows, and
// the inspector engine (default view, render, auto range, statistics,
// readout, .npy export) on the first tensor.
//
// Any panic fails it, and so does a panic recovered by the decode layer
// (an error wrapping ErrPanic): an internal error is a bug, not an outcome.
// Run the campaign with `make fuzz FUZZTIME=10m`; `go test` replays the
// corpus (seeds and testdata/fuzz/FuzzOpen).
func FuzzOpen(f *testing.F) {
	repanic = os.Getenv("TENSORVIEW_REPANIC") != ""
	for _, p := range fuzzSeeds(f) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, c := range tmCases() { // IPC Tensor messages open as a one-row file
		f.Add(c.file)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		openAll(t, data)
	})
}

// fuzzSeeds lists the small files of the interop corpus and of testdata.
func fuzzSeeds(tb testing.TB) []string {
	var out []string
	for _, dir := range []string{interopDir, "../../testdata"} {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !dataFile(path) || strings.Contains(path, "node_modules") {
				return nil
			}
			if info, err := d.Info(); err == nil && info.Size() <= fuzzSeedMax {
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

// noPanic fails t when err is a recovered panic.
func noPanic(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && (errors.Is(err, ErrPanic) || internal(err.Error())) {
		t.Fatalf("%s: %v", what, err)
	}
}

// internal reports whether an error text tells of a panic, recovered here
// or inside arrow-go's readers (which recover their own and return them as
// errors with these words). arrow-go's own panics about corrupt data with a
// message of their own ("arrow/array: string offsets out of bounds of data
// buffer") are errors, not bugs: they say what is wrong.
func internal(s string) bool {
	for _, w := range []string{ErrPanic.Error(), "runtime error", "error reading record batch:", "unknown error while reading", "invalid message metadata:"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// openAll takes data through everything the viewer does with a file.
func openAll(t *testing.T, data []byte) {
	f, err := OpenReader("fuzz", bytes.NewReader(data), int64(len(data)), Options{Budget: 1 << 20, SmallFile: -1})
	noPanic(t, "open", err)
	if err != nil {
		return
	}
	defer f.Close()
	opens := 32 // nested batches opened at most: 16 rows a level would grow exponentially
	walkAll(t, f, false, &opens)
}

// walkAll indexes f and reads the cells of its first rows, the tensors
// (canonical, dialects, encoded images) of their tensor columns, the
// inspector engine on the first tensor, and the nested record batches
// (arrow.turtle) of its first rows, recursively, as the viewer does when
// a person opens them.
func walkAll(t *testing.T, f *File, inspected bool, opens *int) bool {
	noPanic(t, "index", f.Index(context.Background(), nil))
	rows, _ := f.Rows()
	for r := int64(0); r < min(rows, 16); r++ {
		for c, fld := range f.Fields() {
			cell := f.Cell(r, c)
			if internal(cell.Err) {
				t.Fatalf("row %d column %d: %s", r, c, cell.Err)
			}
			// The table's cells: previews at a medium preview's size.
			small := f.CellIn(r, c, 94, 68)
			if internal(small.Err) {
				t.Fatalf("row %d column %d in 94×68: %s", r, c, small.Err)
			}
			if tc := small.Tensor; tc != nil && tc.Preview != nil && tc.PreviewKind != raster.Strip && (tc.Preview.Bounds().Dx() > 94 || tc.Preview.Bounds().Dy() > 68) {
				t.Fatalf("row %d column %d: preview %v drawn for a 94×68 box", r, c, tc.Preview.Bounds())
			}
			if fld.Nested && *opens > 0 {
				*opens--
				inner, err := f.Nested(r, c)
				noPanic(t, "nested", err)
				if err == nil {
					inspected = walkAll(t, inner, inspected, opens)
					inner.Close()
				}
				continue
			}
			if fld.Nested || (fld.Tensor == nil && !fld.Images) {
				continue
			}
			tn, err := f.Tensor(r, c)
			noPanic(t, "tensor", err)
			if err != nil || inspected {
				continue
			}
			inspected = true
			inspectAll(tn)
		}
	}
	for _, fld := range f.Fields() {
		if internal(fld.Err) {
			t.Fatalf("column %q: %s", fld.Name, fld.Err)
		}
	}
	return inspected
}

// inspectAll runs the inspector engine on a tensor as the inspector does
// when it opens.
func inspectAll(t tensorext.Tensor) {
	l := t.Logical()
	if l.Len() > 1<<20 {
		return
	}
	v := inspect.DefaultView(l)
	if v.Validate(l) == nil {
		r := inspect.AutoRange(l, v, inspect.P1to99)
		cm, _ := inspect.ColormapByName("viridis")
		_, _ = inspect.Render(l, v, cm, r)
		_, _, _ = inspect.ValueAt(l, v, 0, 0)
		_ = inspect.Neighbourhood(l, v, 0, 0, 2)
	}
	_ = inspect.ComputeStats(l, 16)
	_ = inspect.WriteNPY(io.Discard, l)
}
