package compare

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/tensorext"
)

// maxElements is the largest tensor compared: A − B is held as
// float64 (8 bytes an element, 128 MiB here).
const maxElements = 1 << 24

// Side names one side of a comparison: a column of a row.
type Side struct {
	Field string
	Col   int
	Row   int64
}

// String is the side as the page names it: "prediction, row 2".
func (s Side) String() string { return s.Field + ", row " + strconv.FormatInt(s.Row, 10) }

// Choice is a column the inspector offers to compare with.
type Choice struct {
	Col   int
	Field string
	// Compatible: same logical shape and value type in the inspected row.
	Compatible bool
	// Self is the inspected column itself, compared in another row.
	Self bool
	// Reason says why it is offered or how it differs (overlay.Candidate).
	Reason string
}

// Choices lists what column a of a file of rows rows can be compared
// with (cols from masks.RowColumns): the compatible columns of the same row
// (overlay.Candidates' order), then column a itself in another row (when
// there is another), then the other columns with a shape, whose
// comparison will say what differs.
func Choices(cols []overlay.Column, a int, rows int64) []Choice {
	var good, other []Choice
	for _, c := range overlay.Candidates(cols, a) {
		ch := Choice{Col: c.Col, Field: cols[c.Col].Name, Compatible: c.Compatible, Reason: c.Reason}
		if c.Compatible {
			good = append(good, ch)
		} else {
			other = append(other, ch)
		}
	}
	if a >= 0 && a < len(cols) && rows > 1 {
		good = append(good, Choice{Col: a, Field: cols[a].Name, Self: true, Compatible: true,
			Reason: cols[a].Name + " in another row"})
	}
	return append(good, other...)
}

// OtherRow is the row compared by default with row of the same column:
// the next one, or the one before the last.
func OtherRow(row, rows int64) int64 {
	if row+1 < rows {
		return row + 1
	}
	return max(0, row-1)
}

// Comparison is B read for A and A − B, or why not.
type Comparison struct {
	B       tensorext.Tensor // B's logical view, with A's dim names
	Diff    overlay.Difference
	Problem string // "" when Diff holds A − B
}

// Pair reads B and computes A − B, a being A's tensor as read
// (physical, with its permutation), with tolerance tol. A problem names
// both sides, with their value types and shapes when read: "Cannot compare
// target, row 0 (float32 5×12×16) with thumb, row 0 (float32 12×16): the
// shapes differ."
func Pair(f *decode.File, a tensorext.Tensor, as, bs Side, tol float64) Comparison {
	b, err := f.Tensor(bs.Row, bs.Col)
	cannot := func(why string) Comparison {
		bd := bs.String()
		if err == nil {
			bd += " (" + Describe(b) + ")"
		}
		return Comparison{Problem: fmt.Sprintf("Cannot compare %s (%s) with %s: %s.", as, Describe(a), bd, why)}
	}
	switch {
	case errors.Is(err, tensorext.ErrNullTensor):
		return cannot(bs.String() + " is null")
	case err != nil:
		return cannot(bs.String() + " cannot be read: " + err.Error())
	case a.Len() > maxElements:
		return cannot(fmt.Sprintf("comparisons hold at most %d elements, and these have %d", maxElements, a.Len()))
	}
	d, derr := overlay.Diff(a, b, tol)
	if derr != nil {
		la, lb := a.Logical(), b.Logical()
		sameShape, sameType := slices.Equal(la.Shape, lb.Shape), arrow.TypeEqual(a.ValueType(), b.ValueType())
		switch {
		case !sameShape && !sameType:
			return cannot("their value types and shapes differ")
		case !sameShape:
			return cannot("their shapes differ")
		case !sameType:
			return cannot("their value types differ")
		}
		return cannot(derr.Error())
	}
	lb := b.Logical()
	lb.DimNames = a.Logical().DimNames
	d.D.DimNames = lb.DimNames
	return Comparison{B: lb, Diff: d}
}

// Describe is a tensor's value type and logical shape: "float32 5×12×16".
func Describe(t tensorext.Tensor) string {
	return fmt.Sprintf("%s %s", t.ValueType(), overlay.TimesShape(t.Logical().Shape))
}

// Range is the colour scale A and B share in view v (so that one
// colour is one value on both sides): the range typed by hand, or the
// range mode fitted to both pictures together (symmetric for a diverging
// colormap), as inspect.Session fits one.
func Range(a, b tensorext.Tensor, v inspect.View, mode string, manual inspect.Range, cm inspect.Colormap) inspect.Range {
	if mode == inspect.Manual {
		return manual
	}
	ra, rb := inspect.AutoRange(a, v, mode), inspect.AutoRange(b, v, mode)
	r := inspect.Range{Min: math.Min(ra.Min, rb.Min), Max: math.Max(ra.Max, rb.Max)}
	if cm.Diverging {
		r = r.Symmetric()
	}
	return r
}

// DiffPicture draws A − B (d, from overlay.Diff) in view v with
// overlay.DiffColormap over range r (Difference.Range: symmetric about 0).
// With a colour channel dimension, each pixel shows the channel whose
// |A − B| is largest, with its sign (NaN first; null where every channel
// is).
func DiffPicture(d tensorext.Tensor, v inspect.View, r inspect.Range) (*image.RGBA, error) {
	cm := overlay.DiffColormap()
	if v.Channel < 0 {
		return inspect.Render(d, v, cm, r)
	}
	if err := v.Validate(d); err != nil {
		return nil, err
	}
	vals, ok := d.Values.(*array.Float64)
	if !ok {
		return nil, fmt.Errorf("a difference holds float64 values, not %s", d.ValueType())
	}
	h, w, nc := d.Shape[v.Y], d.Shape[v.X], d.Shape[v.Channel]
	base := d.Offset
	for k := range d.Shape {
		if k != v.Y && k != v.X && k != v.Channel && v.Index != nil {
			base += v.Index[k] * d.Strides[k]
		}
	}
	out, valid := make([]float64, h*w), make([]bool, h*w)
	for y := range h {
		sy := y
		if v.FlipY {
			sy = h - 1 - y
		}
		for x := range w {
			sx := x
			if v.FlipX {
				sx = w - 1 - x
			}
			pos := base + sy*d.Strides[v.Y] + sx*d.Strides[v.X]
			k := y*w + x
			for c := range nc {
				p := pos + c*d.Strides[v.Channel]
				if vals.IsNull(p) {
					continue
				}
				f := vals.Value(p)
				if !valid[k] || math.Abs(f) > math.Abs(out[k]) || f != f {
					out[k], valid[k] = f, true
				}
				if f != f {
					break
				}
			}
		}
	}
	bld := array.NewFloat64Builder(memory.DefaultAllocator)
	defer bld.Release()
	bld.AppendValues(out, valid)
	plane := tensorext.Tensor{Values: bld.NewFloat64Array(), Shape: []int{h, w}, Strides: []int{w, 1}}
	return inspect.Render(plane, inspect.View{Y: 0, X: 1, Channel: -1}, cm, r)
}

// Swiped is A's picture left of column round(width·pct/100) and B's from
// there on (same sizes).
func Swiped(a, b *image.RGBA, pct int) *image.RGBA {
	out := image.NewRGBA(a.Rect)
	copy(out.Pix, b.Pix)
	w := a.Rect.Dx()
	split := int(math.Round(float64(w) * float64(pct) / 100))
	for y := range a.Rect.Dy() {
		o := y * a.Stride
		copy(out.Pix[o:o+4*split], a.Pix[o:o+4*split])
	}
	return out
}
