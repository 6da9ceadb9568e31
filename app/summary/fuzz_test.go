package summary

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/raster"
	"github.com/tensorview/tensorview/internal/testkit"
	"github.com/tensorview/tensorview/tensorext"
)

// fuzzSeedMax is the largest interop file used as a seed: mutation of big
// inputs is slow, and the small files cover every layout.
const fuzzSeedMax = 64 << 10

// FuzzOpen runs the path a file takes in the viewer, from its bytes to what
// the page shows: decode.OpenReader with a small cache budget and no "small
// file" shortcut (so row windows, estimated row counts and lazy indexing
// all run), Index, every cell (text, tensor summary, preview) of the first
// rows, their values as decode reads them (Value: tensors, encoded images,
// nested record batches), and the inspector engine (default view, render,
// auto range, statistics, readout, .npy export) on the first tensor.
//
// Any panic fails it, and so does a panic recovered by decode or by At (an
// error wrapping decode.ErrPanic): an internal error is a bug, not an
// outcome. Run the campaign with `make fuzz FUZZTIME=10m`; `go test`
// replays the corpus (seeds and testdata/fuzz/FuzzOpen; the IPC Tensor
// messages of testdata are among the seeds).
func FuzzOpen(f *testing.F) {
	for _, p := range testkit.Seeds(f, fuzzSeedMax) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		openAll(t, data)
	})
}

// openAll takes data through everything the viewer does with a file.
func openAll(t *testing.T, data []byte) {
	f, err := decode.OpenReader("fuzz", bytes.NewReader(data), int64(len(data)), decode.Options{Budget: 1 << 20, SmallFile: -1})
	testkit.NoPanic(t, "open", err)
	if err != nil {
		return
	}
	defer f.Close()
	opens := 32 // nested batches opened at most: 16 rows a level would grow exponentially
	walkAll(t, f, false, &opens)
}

// walkAll indexes f and reads the cells of its first rows, their values
// (and the images of image columns), the tensors (canonical, dialects,
// encoded images) of their tensor columns, the inspector engine on the
// first tensor, and the nested record batches (arrow.turtle) of its first
// rows, recursively, as the viewer does when a person opens them.
func walkAll(t *testing.T, f *decode.File, inspected bool, opens *int) bool {
	testkit.NoPanic(t, "index", f.Index(context.Background(), nil))
	rows, _ := f.Rows()
	for r := int64(0); r < min(rows, 16); r++ {
		for c, fld := range f.Fields() {
			cell := At(f, r, c)
			if testkit.Internal(cell.Err) {
				t.Fatalf("row %d column %d: %s", r, c, cell.Err)
			}
			v, err := f.Value(r, c)
			testkit.NoPanic(t, "value", err)
			if err == nil {
				_, _, err = v.Encoded()
				testkit.NoPanic(t, "encoded", err)
			}
			// The table's cells: previews at a medium preview's size.
			small := In(f, r, c, 94, 68)
			if testkit.Internal(small.Err) {
				t.Fatalf("row %d column %d in 94×68: %s", r, c, small.Err)
			}
			if tc := small.Tensor; tc != nil && tc.Preview != nil && tc.PreviewKind != raster.Strip && (tc.Preview.Bounds().Dx() > 94 || tc.Preview.Bounds().Dy() > 68) {
				t.Fatalf("row %d column %d: preview %v drawn for a 94×68 box", r, c, tc.Preview.Bounds())
			}
			if fld.Nested && *opens > 0 {
				*opens--
				inner, err := f.Nested(r, c)
				testkit.NoPanic(t, "nested", err)
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
			testkit.NoPanic(t, "tensor", err)
			if err != nil || inspected {
				continue
			}
			inspected = true
			inspectAll(tn)
		}
	}
	for _, fld := range f.Fields() {
		if testkit.Internal(fld.Err) {
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
