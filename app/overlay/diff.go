package overlay

import (
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/tensorext"
)

// Difference is A − B for two tensors of one logical shape and value type,
// and its statistics.
type Difference struct {
	// Shape is the logical shape of A, B and D.
	Shape []int
	// D holds A − B element by element, computed in float64 (so uint8
	// 3 − 5 is −2, never a wrapped 254), row-major in the logical order,
	// with Shape; it is null where A or B is null. Elsewhere it is exactly
	// numpy's a.astype(float64) − b.astype(float64): NaN where either side
	// is NaN or both are the same infinity. Render it with DiffColormap and
	// Range, or export it with inspect.WriteNPY.
	D tensorext.Tensor
	// Count is the number of elements, and Compared the number whose sides
	// are both finite (not null, NaN or infinite): the statistics below are
	// over those.
	Count, Compared int
	// MaxAbs is the largest |A − B| and MaxIndex the logical index of its
	// first occurrence in row-major order (nil when Compared is 0). MeanAbs
	// is the mean of |A − B| and RMSE the square root of the mean of
	// (A − B)². All three are NaN when Compared is 0.
	MaxAbs   float64
	MaxIndex []int
	MeanAbs  float64
	RMSE     float64
	// Peak is the data range of images of the value type, PSNR's MAX: 255
	// for uint8, 65535 for uint16, 1 for booleans and for floating point
	// values when every finite value of A and B lies in 0..1; 0 otherwise,
	// when PSNR is NaN.
	Peak float64
	// PSNR is the peak signal-to-noise ratio in decibels,
	// 10·log10(Peak² / MSE) with MSE = RMSE², the usual definition
	// (https://en.wikipedia.org/wiki/Peak_signal-to-noise_ratio); Peak is
	// what scikit-image's metrics.peak_signal_noise_ratio takes as
	// data_range by default for non-negative data of these types. +Inf
	// when A and B are equal (MSE 0), NaN without Peak or compared
	// elements.
	PSNR float64
	// Tol is the tolerance Differing was counted with.
	Tol float64
	// Differing counts the elements that differ: finite pairs with
	// |A − B| > Tol, plus OneNull, OneNaN and OtherInf.
	Differing int
	// BothNull and BothNaN count elements null or NaN on both sides (equal,
	// not differing); OneNull and OneNaN those null or NaN on one side only
	// (differing). SameInf counts equal infinities (equal) and OtherInf
	// pairs with an infinity on one side and another value on the other
	// (differing). NaN takes precedence over infinity, null over both.
	BothNull, OneNull, BothNaN, OneNaN, SameInf, OtherInf int
}

// Diff compares tensors a and b element by element in their logical views
// (tensorext.Tensor.Logical), so a permuted tensor compares by its logical
// index. tol is the tolerance of Differing (0 counts every difference). It
// returns an error, naming both sides' value types and shapes, when a side
// is null (a zero Tensor, as a null row gives), a view is malformed, the
// value types are not both the same numeric type, or the logical shapes
// differ: "overlay: cannot compare A (float32 [2 3]) with B (float64
// [2 3]): the value types differ".
func Diff(a, b tensorext.Tensor, tol float64) (Difference, error) {
	a, b, getA, getB, err := diffable(a, b)
	if err != nil {
		return Difference{}, err
	}
	n := a.Len()
	acc := diffAcc{
		d:     Difference{Shape: slices.Clone(a.Shape), Count: n, Tol: tol},
		vals:  make([]float64, n),
		unit:  true,
		maxAt: -1,
	}
	if a.Values.NullN() > 0 || b.Values.NullN() > 0 {
		acc.valid = make([]bool, n)
	}
	walk2(a, b, func(k, pa, pb int) {
		nullA, nullB := a.IsNull(pa), b.IsNull(pb)
		if acc.valid != nil {
			acc.valid[k] = !nullA && !nullB
		}
		switch {
		case nullA && nullB:
			acc.d.BothNull++
		case nullA || nullB:
			acc.d.OneNull++
		default:
			acc.add(k, getA(pa), getB(pb))
		}
	})
	return acc.finish(a.ValueType()), nil
}

// diffable checks that a and b can be compared and returns their logical
// views and readers of their values as float64. The errors are those Diff
// documents.
func diffable(a, b tensorext.Tensor) (la, lb tensorext.Tensor, getA, getB func(pos int) float64, err error) {
	switch {
	case a.Values == nil && b.Values == nil:
		return la, lb, nil, nil, fmt.Errorf("overlay: cannot compare: A and B are null")
	case a.Values == nil:
		return la, lb, nil, nil, fmt.Errorf("overlay: cannot compare: A is null, B is %s", side(b))
	case b.Values == nil:
		return la, lb, nil, nil, fmt.Errorf("overlay: cannot compare: B is null, A is %s", side(a))
	}
	a, b = a.Logical(), b.Logical()
	fail := func(why string) error {
		return fmt.Errorf("overlay: cannot compare A (%s) with B (%s): %s", side(a), side(b), why)
	}
	if err := a.Check(); err != nil {
		return la, lb, nil, nil, fail("A: " + err.Error())
	}
	if err := b.Check(); err != nil {
		return la, lb, nil, nil, fail("B: " + err.Error())
	}
	getA, okA := tensorext.Float64Reader(a.Values)
	getB, okB := tensorext.Float64Reader(b.Values)
	sameType, sameShape := arrow.TypeEqual(a.ValueType(), b.ValueType()), slices.Equal(a.Shape, b.Shape)
	switch {
	case !sameType && !sameShape:
		return la, lb, nil, nil, fail("the value types and the shapes differ")
	case !sameType:
		return la, lb, nil, nil, fail("the value types differ")
	case !okA || !okB:
		return la, lb, nil, nil, fail("the values are not numbers")
	case !sameShape:
		return la, lb, nil, nil, fail("the shapes differ")
	}
	return a, b, getA, getB, nil
}

// diffAcc accumulates a Difference over the element pairs of two tensors:
// vals holds A-B per logical index, valid (nil without nulls) whether both
// sides are non-null, unit whether every finite value so far is within 0..1,
// and maxAt the index of the largest absolute difference (-1 for none).
type diffAcc struct {
	d             Difference
	vals          []float64
	valid         []bool
	unit          bool
	maxAt         int
	sumAbs, sumSq float64
}

// add counts the non-null pair x (from A) and y (from B) at logical index k:
// as NaN or infinity, or as a compared pair within or beyond the tolerance.
func (acc *diffAcc) add(k int, x, y float64) {
	d := &acc.d
	acc.vals[k] = x - y
	switch nanX, nanY := x != x, y != y; {
	case nanX && nanY:
		d.BothNaN++
		return
	case nanX || nanY:
		d.OneNaN++
		return
	}
	infX, infY := math.IsInf(x, 0), math.IsInf(y, 0)
	switch {
	case infX && x == y:
		d.SameInf++
		return
	case infX || infY:
		d.OtherInf++
		return
	}
	if x < 0 || x > 1 || y < 0 || y > 1 {
		acc.unit = false
	}
	diff := math.Abs(x - y)
	d.Compared++
	acc.sumAbs += diff
	acc.sumSq += diff * diff
	if diff > d.Tol {
		d.Differing++
	}
	if acc.maxAt < 0 || diff > d.MaxAbs {
		d.MaxAbs, acc.maxAt = diff, k
	}
}

// finish returns the Difference with its tensor D and its summary
// statistics; those are NaN when no pair was compared. dt is the value type
// both sides share, for the PSNR peak.
func (acc *diffAcc) finish(dt arrow.DataType) Difference {
	d := acc.d
	d.Differing += d.OneNull + d.OneNaN + d.OtherInf
	d.D = float64Tensor(acc.vals, acc.valid, d.Shape)
	d.Peak = peak(dt, acc.unit)
	d.MaxAbs, d.MeanAbs, d.RMSE, d.PSNR = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if d.Compared == 0 {
		return d
	}
	d.MaxAbs = math.Abs(acc.vals[acc.maxAt])
	d.MaxIndex = unravel(acc.maxAt, d.Shape)
	d.MeanAbs = acc.sumAbs / float64(d.Compared)
	mse := acc.sumSq / float64(d.Compared)
	d.RMSE = math.Sqrt(mse)
	if d.Peak > 0 {
		d.PSNR = 10 * math.Log10(d.Peak*d.Peak/mse) // +Inf for mse 0
	}
	return d
}

// side describes one side of a comparison: "float32 [2 3]".
func side(t tensorext.Tensor) string {
	return fmt.Sprintf("%s %v", t.ValueType(), t.Shape)
}

// peak is the data range PSNR uses for values of type dt; unit reports that
// every finite value lies in 0..1.
func peak(dt arrow.DataType, unit bool) float64 {
	dt = tensorext.StandardType(dt)
	switch id := dt.ID(); {
	case id == arrow.UINT8:
		return 255
	case id == arrow.UINT16:
		return 65535
	case id == arrow.BOOL:
		return 1
	case arrow.IsFloating(id) && unit:
		return 1
	}
	return 0
}

// walk2 calls fn with the row-major number k of every element of the
// logical shape a and b share and its positions in a's and b's values.
func walk2(a, b tensorext.Tensor, fn func(k, pa, pb int)) {
	n := a.Len()
	if n == 0 {
		return
	}
	nd := len(a.Shape)
	idx := make([]int, nd)
	pa, pb := a.Offset, b.Offset
	for k := 0; k < n; k++ {
		fn(k, pa, pb)
		for j := nd - 1; j >= 0; j-- {
			idx[j]++
			pa += a.Strides[j]
			pb += b.Strides[j]
			if idx[j] < a.Shape[j] {
				break
			}
			pa -= idx[j] * a.Strides[j]
			pb -= idx[j] * b.Strides[j]
			idx[j] = 0
		}
	}
}

// unravel returns the index of row-major element k of shape.
func unravel(k int, shape []int) []int {
	idx := make([]int, len(shape))
	for j := len(shape) - 1; j >= 0; j-- {
		idx[j] = k % shape[j]
		k /= shape[j]
	}
	return idx
}

// float64Tensor wraps values (row-major in shape; valid nil for no nulls)
// as a tensor view over one float64 array.
func float64Tensor(vals []float64, valid []bool, shape []int) tensorext.Tensor {
	bld := array.NewFloat64Builder(memory.DefaultAllocator)
	defer bld.Release()
	bld.AppendValues(vals, valid)
	strides := make([]int, len(shape))
	s := 1
	for j := len(shape) - 1; j >= 0; j-- {
		strides[j] = s
		s *= shape[j]
	}
	return tensorext.Tensor{Values: bld.NewFloat64Array(), Shape: slices.Clone(shape), Strides: strides}
}

// Range returns the colour scale of the difference picture: symmetric about
// 0, {−MaxAbs, MaxAbs}, so that 0 takes the diverging colormap's neutral
// middle; {−1, 1} when MaxAbs is 0 or NaN (no finite difference).
func (d Difference) Range() inspect.Range {
	if !(d.MaxAbs > 0) {
		return inspect.Range{Min: -1, Max: 1}
	}
	return inspect.Range{Min: -d.MaxAbs, Max: d.MaxAbs}
}

// DiffColormap returns the colormap of the difference picture: the
// inspector's diverging "coolwarm" (Kenneth Moreland's cool to warm map,
// inspect.Colormaps), blue for A < B, grey-white for equal, red for A > B.
func DiffColormap() inspect.Colormap {
	c, _ := inspect.ColormapByName("coolwarm")
	return c
}
