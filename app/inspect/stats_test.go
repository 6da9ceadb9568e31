package inspect

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// numpyPercentile is the test's own statement of numpy.percentile's default
// (linear) method, by sorting.
func numpyPercentile(vals []float64, p float64) float64 {
	x := slices.Clone(vals)
	slices.Sort(x)
	h := float64(len(x)-1) * (p / 100)
	k := int(math.Floor(h))
	if k >= len(x)-1 {
		return x[len(x)-1]
	}
	g := h - float64(k)
	d := x[k+1] - x[k]
	if g >= 0.5 {
		return x[k+1] - d*(1-g)
	}
	return x[k] + d*g
}

func TestAutoRange(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	// A [3,4,5] tensor: slice 1 of dimension 0 is shown; slices 0 and 2
	// hold extreme values that must not count.
	shape := []int{3, 4, 5}
	vals := make([]float64, 60)
	null := map[int]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	var shown []float64
	for i := range vals {
		switch {
		case i < 20:
			vals[i] = -1e9
		case i >= 40:
			vals[i] = 1e9
		case i == 21:
			vals[i] = nan
		case i == 22:
			vals[i] = inf
		case i == 23:
			vals[i] = -inf
		case i == 24:
			null[i] = true
		default:
			vals[i] = math.Round(rng.NormFloat64()*1000) / 8
			shown = append(shown, vals[i])
		}
	}
	ten := withNulls(t, arrow.PrimitiveTypes.Float64, shape, vals, null)
	v := View{Y: 1, X: 2, Channel: -1, Index: []int{1, 0, 0}}
	if got, want := AutoRange(ten, v, MinMax), minMax(shown); got != want {
		t.Errorf("minmax = %v, want %v", got, want)
	}
	want := Range{numpyPercentile(shown, 1), numpyPercentile(shown, 99)}
	if got := AutoRange(ten, v, P1to99); got != want {
		t.Errorf("p1-99 = %v, want %v", got, want)
	}
	// Same through a flipped, transposed view: the same values.
	v2 := View{Y: 2, X: 1, Channel: -1, Index: []int{1, 0, 0}, FlipX: true}
	if got := AutoRange(ten, v2, "P1-99"); got != want {
		t.Errorf("p1-99 transposed = %v, want %v", got, want)
	}
	// Other percentiles, and bad modes falling back to minmax.
	if got := AutoRange(ten, v, "p5-95"); got != (Range{numpyPercentile(shown, 5), numpyPercentile(shown, 95)}) {
		t.Errorf("p5-95 = %v", got)
	}
	for _, m := range []string{"", "bogus", "p99-1", "p1-101", "p1", "px-9"} {
		if got := AutoRange(ten, v, m); got != minMax(shown) {
			t.Errorf("mode %q = %v, want minmax", m, got)
		}
	}
	// Nothing finite, invalid views, constant values.
	allNaN := fixed(t, arrow.PrimitiveTypes.Float32, []int{2, 2}, nil, nil, []float32{float32(nan), float32(inf), float32(nan), float32(-inf)})
	if got := AutoRange(allNaN, View{Y: 0, X: 1, Channel: -1}, MinMax); got != (Range{0, 1}) {
		t.Errorf("no finite values: %v", got)
	}
	if got := AutoRange(ten, View{Y: 0, X: 0, Channel: -1}, MinMax); got != (Range{0, 1}) {
		t.Errorf("invalid view: %v", got)
	}
	c := fixed(t, arrow.PrimitiveTypes.Int16, []int{2, 2}, nil, nil, []int16{7, 7, 7, 7})
	if got := AutoRange(c, View{Y: 0, X: 1, Channel: -1}, P1to99); got != (Range{7, 7}) {
		t.Errorf("constant: %v", got)
	}
	// Colour views span every channel.
	rgb := fixed(t, arrow.PrimitiveTypes.Uint8, []int{1, 2, 3}, nil, nil, []uint8{5, 200, 9, 40, 3, 77})
	if got := AutoRange(rgb, View{Y: 0, X: 1, Channel: 2}, MinMax); got != (Range{3, 200}) {
		t.Errorf("rgb: %v", got)
	}
}

// The selection-based percentile against sorting, on many random inputs
// with ties.
func TestPercentileSelection(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n < 300; n += 7 {
		for trial := 0; trial < 5; trial++ {
			vals := make([]float64, n)
			for i := range vals {
				vals[i] = float64(rng.IntN(n/2 + 1))
				if trial%2 == 1 {
					vals[i] = rng.Float64()
				}
			}
			for _, p := range [][2]float64{{1, 99}, {0, 100}, {50, 50.5}, {25, 75}, {0.5, 99.5}, {33, 33}} {
				wantLo, wantHi := numpyPercentile(vals, p[0]), numpyPercentile(vals, p[1])
				lo, hi := percentiles(slices.Clone(vals), p[0], p[1])
				if lo != wantLo || hi != wantHi {
					t.Fatalf("n=%d p=%v: got %v %v, want %v %v", n, p, lo, hi, wantLo, wantHi)
				}
			}
		}
	}
}

func TestComputeStats(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	vals := []float64{1, 2, nan, 4, inf, -inf, 0 /* null */, 7, 2.5, -3}
	ten := withNulls(t, arrow.PrimitiveTypes.Float64, []int{2, 5}, vals, map[int]bool{6: true})
	s := ComputeStats(ten, 4)
	finite := []float64{1, 2, 4, 7, 2.5, -3}
	mean := (1 + 2 + 4 + 7 + 2.5 - 3) / 6.0
	var ss float64
	for _, f := range finite {
		ss += (f - mean) * (f - mean)
	}
	std := math.Sqrt(ss / 6)
	if s.Count != 10 || s.Nulls != 1 || s.NaN != 1 || s.PosInf != 1 || s.NegInf != 1 || s.Finite != 6 {
		t.Errorf("counts: %+v", s)
	}
	if s.Min != -3 || s.Max != 7 || math.Abs(s.Mean-mean) > 1e-12 || math.Abs(s.Std-std) > 1e-12 {
		t.Errorf("moments: %+v, want mean %v std %v", s, mean, std)
	}
	// numpy.histogram([1, 2, 4, 7, 2.5, -3], bins=4) -> [1, 1, 3, 1], edges -3, -0.5, 2, 4.5, 7
	if s.HistMin != -3 || s.HistMax != 7 || !slices.Equal(s.Hist, []int{1, 1, 3, 1}) {
		t.Errorf("hist: %v %v..%v", s.Hist, s.HistMin, s.HistMax)
	}

	// Exact small integers, every view order (the permutation does not
	// matter to statistics).
	iv := []int32{3, -1, 4, 1, -5, 9, 2, 6}
	for _, perm := range [][]int{nil, {1, 0, 2}, {2, 1, 0}} {
		s := ComputeStats(fixed(t, arrow.PrimitiveTypes.Int32, []int{2, 2, 2}, perm, nil, iv).Logical(), 5)
		// mean 19/8, population variance 1007/64... computed independently:
		m := 19.0 / 8
		var v float64
		for _, x := range iv {
			v += (float64(x) - m) * (float64(x) - m)
		}
		if s.Min != -5 || s.Max != 9 || s.Mean != m || math.Abs(s.Std-math.Sqrt(v/8)) > 1e-12 || s.Finite != 8 {
			t.Errorf("int32 perm %v: %+v", perm, s)
		}
		// numpy.histogram(iv, bins=5): edges -5, -2.2, 0.6, 3.4, 6.2, 9 -> [1, 1, 3, 2, 1]
		if !slices.Equal(s.Hist, []int{1, 1, 3, 2, 1}) {
			t.Errorf("int32 hist %v", s.Hist)
		}
	}

	// Constant values: numpy widens the histogram range by 0.5.
	s = ComputeStats(fixed(t, arrow.PrimitiveTypes.Uint8, []int{3}, nil, nil, []uint8{4, 4, 4}), 2)
	if s.Std != 0 || s.Mean != 4 || s.HistMin != 3.5 || s.HistMax != 4.5 || !slices.Equal(s.Hist, []int{0, 3}) {
		t.Errorf("constant: %+v", s)
	}
	// Booleans, float16 (with a subnormal), no bins.
	s = ComputeStats(fixed(t, arrow.FixedWidthTypes.Boolean, []int{4}, nil, nil, []bool{true, false, true, true}), 0)
	if s.Mean != 0.75 || s.Hist != nil || math.Abs(s.Std-math.Sqrt(0.1875)) > 1e-12 {
		t.Errorf("bool: %+v", s)
	}
	s = ComputeStats(fixed(t, arrow.FixedWidthTypes.Float16, []int{3}, nil, nil, []float16.Num{half(0x0001), half(0x7e00), half(0x3c00)}), 1)
	if s.Min != 0x1p-24 || s.Max != 1 || s.NaN != 1 || !slices.Equal(s.Hist, []int{2}) {
		t.Errorf("float16: %+v", s)
	}
	// Nothing finite.
	s = ComputeStats(fixed(t, arrow.PrimitiveTypes.Float32, []int{2}, nil, nil, []float32{float32(nan), float32(inf)}), 3)
	if s.Finite != 0 || !math.IsNaN(s.Mean) || !math.IsNaN(s.Min) || s.HistMin != 0 || s.HistMax != 1 || !slices.Equal(s.Hist, []int{0, 0, 0}) {
		t.Errorf("no finite: %+v", s)
	}
	// Accuracy: large offset, small spread (naive sum of squares fails).
	big := make([]float64, 1000)
	for i := range big {
		big[i] = 1e9 + float64(i%10)
	}
	s = ComputeStats(fixed(t, arrow.PrimitiveTypes.Float64, []int{1000}, nil, nil, big), 0)
	if math.Abs(s.Mean-(1e9+4.5)) > 1e-6 || math.Abs(s.Std-math.Sqrt(8.25)) > 1e-9 {
		t.Errorf("offset data: mean %v std %v", s.Mean, s.Std)
	}
}
