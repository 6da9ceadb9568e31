//go:build !wasm

package ui

import (
	"image"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/ui/inspector/masks"
	"github.com/tensorview/tensorview/app/viewstate"
	"github.com/tensorview/tensorview/internal/testkit"
)

func TestCompareChoices(t *testing.T) {
	f := decodetest.Open(t, "compare.arrow")
	cols := masks.RowColumns(f, 0)
	var got []string
	for _, c := range compareChoices(cols, decodetest.Column(t, f, "target"), 3) {
		s := c.Field
		if c.Self {
			s += " (self)"
		}
		if !c.Compatible {
			s += " ×"
		}
		got = append(got, s)
	}
	if want := []string{"prediction", "target (self)", "baseline ×", "thumb ×", "image ×", "reconstruction ×"}; !slices.Equal(got, want) {
		t.Errorf("choices for target: %q, want %q", got, want)
	}
	if cs := compareChoices(cols, decodetest.Column(t, f, "image"), 1); len(cs) == 0 || cs[0].Field != "reconstruction" || slices.ContainsFunc(cs, func(c compareChoice) bool { return c.Self }) {
		t.Errorf("choices for image in a one-row file: %+v", cs)
	}
	for _, c := range []struct{ row, rows, want int64 }{{0, 3, 1}, {1, 3, 2}, {2, 3, 1}, {0, 1, 0}} {
		if got := otherRow(c.row, c.rows); got != c.want {
			t.Errorf("otherRow(%d, %d) = %d, want %d", c.row, c.rows, got, c.want)
		}
	}
}

// TestComparePair compares compare.arrow's tensors (apache-arrow; the
// prediction stored permuted) as gen_compare.mjs computed it, and checks
// every problem names both sides.
func TestComparePair(t *testing.T) {
	f := decodetest.Open(t, "compare.arrow")
	exp := testkit.ReadCompared(t)
	side := func(field string, row int64) compareSide {
		return compareSide{Field: field, Col: decodetest.Column(t, f, field), Row: row}
	}
	pair := func(a, b compareSide, tol float64) comparison {
		at, err := f.Tensor(a.Row, a.Col)
		if err != nil {
			t.Fatal(err)
		}
		return comparePair(f, at, a, b, tol)
	}
	for key, c := range map[string][2]compareSide{
		"target@0 - prediction@0":    {side("target", 0), side("prediction", 0)},
		"target@0 - target@1":        {side("target", 0), side("target", 1)},
		"image@0 - reconstruction@0": {side("image", 0), side("reconstruction", 0)},
	} {
		e := exp.Diffs[key]
		for tolText, differing := range e.Differing {
			tol, _ := strconv.ParseFloat(tolText, 64)
			got := pair(c[0], c[1], tol)
			if got.Problem != "" {
				t.Fatalf("%s: %s", key, got.Problem)
			}
			d := got.Diff
			if d.MaxAbs != e.MaxAbs || !slices.Equal(d.MaxIndex, e.MaxIndex) || d.MeanAbs != e.MeanAbs || d.RMSE != e.RMSE ||
				d.Compared != e.Compared || d.Count != e.Count || d.OtherInf != e.OtherInf || d.Peak != e.Peak || d.Differing != differing {
				t.Errorf("%s tol %s: max %v at %v, mean %v, rmse %v, compared %d/%d, infinite %d, peak %v, differing %d; want %v at %v, %v, %v, %d/%d, %d, %v, %d",
					key, tolText, d.MaxAbs, d.MaxIndex, d.MeanAbs, d.RMSE, d.Compared, d.Count, d.OtherInf, d.Peak, d.Differing,
					e.MaxAbs, e.MaxIndex, e.MeanAbs, e.RMSE, e.Compared, e.Count, e.OtherInf, e.Peak, differing)
			}
			if math.Abs(d.PSNR-e.PSNR) > 1e-12*e.PSNR {
				t.Errorf("%s: PSNR %v, want %v", key, d.PSNR, e.PSNR)
			}
			if !slices.Equal(d.D.Shape, e.Shape) {
				t.Errorf("%s: A − B of shape %v, want %v", key, d.D.Shape, e.Shape)
			}
			for k, want := range e.Diff {
				if v, _ := d.D.Float64(k); v != float64(want) { // row-major, offset 0
					t.Fatalf("%s: A − B element %d = %v, want %v", key, k, v, want)
				}
			}
		}
	}
	// The dim names of A on B and A − B, for the readouts.
	if got := pair(side("target", 0), side("prediction", 0), 0); !slices.Equal(got.B.DimNames, []string{"slice", "H", "W"}) || !slices.Equal(got.Diff.D.DimNames, got.B.DimNames) {
		t.Errorf("dim names of B %q and A − B %q", got.B.DimNames, got.Diff.D.DimNames)
	}

	for _, c := range []struct {
		a, b compareSide
		want string
	}{
		{side("target", 0), side("thumb", 0), "Cannot compare target, row 0 (float32 5×12×16) with thumb, row 0 (float32 12×16): their shapes differ."},
		{side("target", 0), side("baseline", 0), "Cannot compare target, row 0 (float32 5×12×16) with baseline, row 0 (float64 5×12×16): their value types differ."},
		{side("image", 1), side("thumb", 1), "Cannot compare image, row 1 (uint8 12×16×3) with thumb, row 1 (float32 12×16): their value types and shapes differ."},
		{side("target", 2), side("prediction", 2), "Cannot compare target, row 2 (float32 5×12×16) with prediction, row 2: prediction, row 2 is null."},
		{side("target", 0), side("target", 9), "Cannot compare target, row 0 (float32 5×12×16) with target, row 9: target, row 9 cannot be read: no row 9 (yet)."},
	} {
		if got := pair(c.a, c.b, 0).Problem; got != c.want {
			t.Errorf("%s vs %s:\n got %q\nwant %q", c.a, c.b, got, c.want)
		}
	}
}

// TestDiffPicture draws A − B: a scalar view maps each element through
// DiffColormap over the symmetric range, as inspect.Render does; a colour
// view shows each pixel's channel of largest |A − B|, with its sign.
func TestDiffPicture(t *testing.T) {
	f := decodetest.Open(t, "compare.arrow")
	exp := testkit.ReadCompared(t)
	cm := overlay.DiffColormap()
	colour := func(v float64, r inspect.Range) [4]uint8 {
		if math.IsInf(v, -1) {
			return [4]uint8{cm.NegInf.R, cm.NegInf.G, cm.NegInf.B, cm.NegInf.A}
		}
		i := min(255, max(0, int(math.Floor((v-r.Min)*(256/(r.Max-r.Min))))))
		c := cm.LUT[i]
		return [4]uint8{c.R, c.G, c.B, c.A}
	}
	px := func(img *image.RGBA, x, y int) [4]uint8 {
		c := img.RGBAAt(x, y)
		return [4]uint8{c.R, c.G, c.B, c.A}
	}

	a, _ := f.Tensor(0, decodetest.Column(t, f, "target"))
	got := comparePair(f, a, compareSide{"target", decodetest.Column(t, f, "target"), 0}, compareSide{"prediction", decodetest.Column(t, f, "prediction"), 0}, 0)
	d, e := got.Diff, exp.Diffs["target@0 - prediction@0"]
	r := d.Range()
	if r != (inspect.Range{Min: -0.25, Max: 0.25}) {
		t.Errorf("range %+v, want ±0.25", r)
	}
	H, W := exp.Height, exp.Width
	for _, s := range []int{3, 4} {
		v := inspect.View{Y: 1, X: 2, Channel: -1, Index: []int{s, 0, 0}, FlipX: s == 4}
		img, err := diffPicture(d.D, v, r)
		if err != nil {
			t.Fatal(err)
		}
		for y := range H {
			for x := range W {
				sx := x
				if v.FlipX {
					sx = W - 1 - x
				}
				want := float64(e.Diff[(s*H+y)*W+sx])
				if g, w := px(img, x, y), colour(want, r); g != w {
					t.Fatalf("slice %d pixel (%d, %d): %v, want %v (A − B = %v)", s, x, y, g, w, want)
				}
			}
		}
	}
	// The largest difference, +0.25 at [3, 7, 4], takes the map's last colour.
	if img, _ := diffPicture(d.D, inspect.View{Y: 1, X: 2, Channel: -1, Index: []int{3, 0, 0}}, r); px(img, 4, 7) != colour(0.25, r) || colour(0.25, r) != [4]uint8{cm.LUT[255].R, cm.LUT[255].G, cm.LUT[255].B, 255} {
		t.Errorf("the max's pixel %v", px(img, 4, 7))
	}

	// image − reconstruction, RGB: pixel (9, 6) has channel 0's +40.
	ai, _ := f.Tensor(0, decodetest.Column(t, f, "image"))
	gi := comparePair(f, ai, compareSide{"image", decodetest.Column(t, f, "image"), 0}, compareSide{"reconstruction", decodetest.Column(t, f, "reconstruction"), 0}, 0)
	ri := gi.Diff.Range()
	img, err := diffPicture(gi.Diff.D, inspect.View{Y: 0, X: 1, Channel: 2}, ri)
	if err != nil {
		t.Fatal(err)
	}
	ei := exp.Diffs["image@0 - reconstruction@0"]
	for y := range H {
		for x := range W {
			best := 0.0
			for c := range 3 {
				if v := float64(ei.Diff[(y*W+x)*3+c]); c == 0 || math.Abs(v) > math.Abs(best) {
					best = v
				}
			}
			if g, w := px(img, x, y), colour(best, ri); g != w {
				t.Fatalf("RGB pixel (%d, %d): %v, want %v (channel of largest |A − B|: %v)", x, y, g, w, best)
			}
		}
	}
}

func TestSwiped(t *testing.T) {
	a, b := image.NewRGBA(image.Rect(0, 0, 4, 2)), image.NewRGBA(image.Rect(0, 0, 4, 2))
	for i := range a.Pix {
		a.Pix[i], b.Pix[i] = 1, 2
	}
	for _, c := range []struct {
		pct   int
		split int
	}{{0, 0}, {30, 1}, {50, 2}, {63, 3}, {100, 4}} {
		out := swiped(a, b, c.pct)
		for y := range 2 {
			for x := range 4 {
				want := uint8(2)
				if x < c.split {
					want = 1
				}
				if got := out.Pix[y*out.Stride+4*x]; got != want {
					t.Errorf("swipe %d%%: pixel (%d, %d) from %d, want %d", c.pct, x, y, got, want)
				}
			}
		}
	}
	if a.Pix[0] != 1 || b.Pix[0] != 2 {
		t.Error("swiped changed its inputs")
	}
}

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
	if !c.ok() || c.b != (compareSide{"target", col, 1}) || c.tol != 0.001953125 || c.swipe != 40 || c.choice() < 0 || !c.choices[c.choice()].Self {
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
