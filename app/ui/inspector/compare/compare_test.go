//go:build !wasm

package compare

import (
	"image"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/ui/inspector/masks"
	"github.com/tensorview/tensorview/internal/testkit"
)

func TestCompareChoices(t *testing.T) {
	f := decodetest.Open(t, "compare.arrow")
	cols := masks.RowColumns(f, 0)
	var got []string
	for _, c := range Choices(cols, decodetest.Column(t, f, "target"), 3) {
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
	if cs := Choices(cols, decodetest.Column(t, f, "image"), 1); len(cs) == 0 || cs[0].Field != "reconstruction" || slices.ContainsFunc(cs, func(c Choice) bool { return c.Self }) {
		t.Errorf("choices for image in a one-row file: %+v", cs)
	}
	for _, c := range []struct{ row, rows, want int64 }{{0, 3, 1}, {1, 3, 2}, {2, 3, 1}, {0, 1, 0}} {
		if got := OtherRow(c.row, c.rows); got != c.want {
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
	side := func(field string, row int64) Side {
		return Side{Field: field, Col: decodetest.Column(t, f, field), Row: row}
	}
	pair := func(a, b Side, tol float64) Comparison {
		at, err := f.Tensor(a.Row, a.Col)
		if err != nil {
			t.Fatal(err)
		}
		return Pair(f, at, a, b, tol)
	}
	for key, c := range map[string][2]Side{
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
		a, b Side
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
	got := Pair(f, a, Side{"target", decodetest.Column(t, f, "target"), 0}, Side{"prediction", decodetest.Column(t, f, "prediction"), 0}, 0)
	d, e := got.Diff, exp.Diffs["target@0 - prediction@0"]
	r := d.Range()
	if r != (inspect.Range{Min: -0.25, Max: 0.25}) {
		t.Errorf("range %+v, want ±0.25", r)
	}
	H, W := exp.Height, exp.Width
	for _, s := range []int{3, 4} {
		v := inspect.View{Y: 1, X: 2, Channel: -1, Index: []int{s, 0, 0}, FlipX: s == 4}
		img, err := DiffPicture(d.D, v, r)
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
	if img, _ := DiffPicture(d.D, inspect.View{Y: 1, X: 2, Channel: -1, Index: []int{3, 0, 0}}, r); px(img, 4, 7) != colour(0.25, r) || colour(0.25, r) != [4]uint8{cm.LUT[255].R, cm.LUT[255].G, cm.LUT[255].B, 255} {
		t.Errorf("the max's pixel %v", px(img, 4, 7))
	}

	// image − reconstruction, RGB: pixel (9, 6) has channel 0's +40.
	ai, _ := f.Tensor(0, decodetest.Column(t, f, "image"))
	gi := Pair(f, ai, Side{"image", decodetest.Column(t, f, "image"), 0}, Side{"reconstruction", decodetest.Column(t, f, "reconstruction"), 0}, 0)
	ri := gi.Diff.Range()
	img, err := DiffPicture(gi.Diff.D, inspect.View{Y: 0, X: 1, Channel: 2}, ri)
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
		out := Swiped(a, b, c.pct)
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
