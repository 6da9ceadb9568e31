//go:build !wasm

package ui

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/ui/inspector/compare"
	"github.com/tensorview/tensorview/app/ui/inspector/masks"
	"github.com/tensorview/tensorview/app/viewstate"
)

// TestCompareState runs the comparison's commands: choose a column, A's own
// column in another row, a row, a tolerance, swipe; what the address gets;
// a link's comparison applied, and one naming no column.
func TestCompareState(t *testing.T) {
	f := decodetest.Open(t, "compare.arrow")
	col := decodetest.Column(t, f, "target")
	at, _ := f.Tensor(0, col)
	c := newCompare(f, 0, col, at, masks.RowColumns(f, 0))
	addr := func() viewstate.Compare {
		if a := c.address(); a != nil {
			return *a
		}
		return viewstate.Compare{}
	}
	if c.on() || addr().Field != "" {
		t.Fatal("a new comparison compares")
	}
	if !c.choose(decodetest.Column(t, f, "prediction")) || !c.ok() || c.b.Row != 0 || c.cmp.Diff.Differing != 771 {
		t.Fatalf("prediction: %+v %q", c.b, c.cmp.Problem)
	}
	if got := addr(); got.Field != "prediction" || got.Row != 0 || got.Tol != 0 || got.Swipe != nil {
		t.Errorf("address %+v", got)
	}
	if c.choose(decodetest.Column(t, f, "prediction")) {
		t.Error("choosing the same column again changed something")
	}
	if !c.setTol(1.0/512) || c.cmp.Diff.Differing != 14 || !c.setTol(0.2) || c.cmp.Diff.Differing != 2 || c.setTol(-1) || c.setTol(math.NaN()) {
		t.Errorf("tolerances: differing %d", c.cmp.Diff.Differing)
	}
	// A's column: the next row; then row 2.
	if !c.choose(col) || c.b.Row != 1 || !c.ok() || c.cmp.Diff.MaxAbs != 0.0390625 {
		t.Errorf("target in another row: %+v %q", c.b, c.cmp.Problem)
	}
	if !c.setRow(2) || c.b.Row != 2 || c.cmp.Diff.MaxAbs != 0 || c.setRow(2) || c.setRow(-1) {
		t.Errorf("row 2: %+v max %v", c.b, c.cmp.Diff.MaxAbs)
	}
	if !c.setSwipe(30) || c.setSwipe(101) || c.setSwipe(-2) {
		t.Error("swipe")
	}
	if got := addr(); got.Field != "target" || got.Row != 2 || got.Tol != 0.2 || got.Swipe == nil || *got.Swipe != 30 {
		t.Errorf("address %+v", got)
	}
	// Another column keeps A's row; a null B says so and keeps the rest.
	if !c.choose(decodetest.Column(t, f, "thumb")) || c.ok() || c.cmp.Problem == "" || c.b.Row != 0 {
		t.Errorf("thumb: %+v %q", c.b, c.cmp.Problem)
	}
	if !c.choose(-1) || c.on() || addr().Field != "" || c.address() != nil {
		t.Error("nothing compared")
	}

	// A link.
	c = newCompare(f, 0, col, at, masks.RowColumns(f, 0))
	c.restore(&viewstate.Compare{Field: "target", Row: 1, Tol: 0.001953125, Swipe: ptr(40)})
	if !c.ok() || c.b != (compare.Side{Field: "target", Col: col, Row: 1}) || c.tol != 0.001953125 || c.swipe != 40 || c.choice() < 0 || !c.choices[c.choice()].Self {
		t.Errorf("link: %+v tol %v swipe %d choice %d", c.b, c.tol, c.swipe, c.choice())
	}
	c = newCompare(f, 0, col, at, masks.RowColumns(f, 0))
	c.restore(&viewstate.Compare{Field: "nope"})
	if c.on() || c.note != "The link compares with “nope”, which is no column of this file." {
		t.Errorf("a link to no column: %+v %q", c.b, c.note)
	}
}

// TestComparePictures: A and B share one colour scale fitted to both, the
// readouts give the other sides' values, and "show" moves the sliders to
// the largest difference.
func TestComparePictures(t *testing.T) {
	f := decodetest.Open(t, "compare.arrow")
	col := decodetest.Column(t, f, "target")
	at, _ := f.Tensor(0, col)
	s := inspect.NewSession(at, histogramBins)
	c := newCompare(f, 0, col, at, masks.RowColumns(f, 0))
	c.choose(decodetest.Column(t, f, "prediction"))
	p := c.pictures(s)
	if p.A == nil || p.B == nil || p.D == nil || p.Err != "" {
		t.Fatalf("pictures: %+v", p)
	}
	ra := inspect.AutoRange(s.Shown(), s.View, inspect.MinMax)
	rb := inspect.AutoRange(c.cmp.B, s.View, inspect.MinMax)
	if p.Range.Min != min(ra.Min, rb.Min) || p.Range.Max != max(ra.Max, rb.Max) || ra == rb {
		t.Errorf("shared range %+v of %+v and %+v", p.Range, ra, rb)
	}
	if !reflect.DeepEqual(c.pictures(s), p) {
		t.Error("pictures of the same view drawn again differ")
	}
	// Slice 0, pixel (0, 0): target 1/64, prediction 2/1024 less.
	if got := c.probe(s, "a")(0, 0); got != "B = 0.013671875, A − B = 0.001953125" {
		t.Errorf("readout of A: %q", got)
	}
	if got := c.probe(s, "diff")(0, 0); got != "A = 0.015625, B = 0.013671875" {
		t.Errorf("readout of A − B: %q", got)
	}
	if !c.gotoMax(s) || s.View.Index[0] != 3 || c.gotoMax(s) {
		t.Errorf("show the max: index %v", s.View.Index)
	}
	q := c.pictures(s)
	if q.A == p.A {
		t.Error("another slice, the same picture")
	}
	if c.setSwipe(50); c.pictures(s).Swiped == nil {
		t.Error("no swiped picture")
	}
	s.SetPhysical(true)
	if c.pictures(s).A != nil {
		t.Error("pictures of the physical layout")
	}
}

// TestInspectorCompareLink mounts the inspector on a link comparing with
// another row: the comparison's view is drawn, and reported back.
func TestInspectorCompareLink(t *testing.T) {
	f := decodetest.Open(t, "compare.arrow")
	e := app.NewTestEngine()
	link := &viewstate.Inspector{Field: "target", Row: 0, Compare: &viewstate.Compare{Field: "prediction", Row: 0, Tol: 0.2}}
	in := &Inspector{File: f, Col: decodetest.Column(t, f, "target"), Row: 0, Restore: link}
	if err := e.Load(in); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	if !in.comparing() || in.cmp.cmp.Diff.Differing != 2 {
		t.Fatalf("comparing %v", in.comparing())
	}
	if st := in.cmp.address(); st == nil || st.Field != "prediction" || st.Row != 0 || st.Tol != 0.2 {
		t.Errorf("reported %+v", st)
	}
}

// TestInspectorCompareNoPicture compares two rows of a 1-D column
// (js_big.arrow's float32 [8] embeddings: row r, k holds
// ((7r + 3k) mod 16 − 8)/8): no picture, the statistics and A − B as
// numbers.
func TestInspectorCompareNoPicture(t *testing.T) {
	f := decodetest.Open(t, "js_big.arrow")
	e := app.NewTestEngine()
	link := &viewstate.Inspector{Field: "embedding", Row: 0, Compare: &viewstate.Compare{Field: "embedding", Row: 1}}
	in := &Inspector{File: f, Col: decodetest.Column(t, f, "embedding"), Row: 0, Restore: link}
	if err := e.Load(in); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	if !in.comparing() || in.session.Image != nil {
		t.Fatalf("comparing %v, picture %v", in.comparing(), in.session.Image != nil)
	}
	d := in.cmp.cmp.Diff
	if d.MaxAbs != 1.125 || !slices.Equal(d.MaxIndex, []int{3}) || d.Differing != 8 || d.MeanAbs != (5*0.875+3*1.125)/8 {
		t.Errorf("A − B: max %v at %v, differing %d, mean %v", d.MaxAbs, d.MaxIndex, d.Differing, d.MeanAbs)
	}
	if html := app.HTMLString(in); !strings.Contains(html, `data-role="diff-values"`) || !strings.Contains(html, "-0.875") || !strings.Contains(html, `data-max-abs="1.125"`) {
		t.Errorf("the inspector shows no A − B values or statistics")
	}
}
