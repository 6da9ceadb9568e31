package inspect

import (
	"math"
	"strconv"
	"strings"

	"github.com/tensorview/tensorview/tensorext"
)

// AutoRange modes.
const (
	// MinMax spans the smallest to the largest value.
	MinMax = "minmax"
	// P1to99 spans the 1st to the 99th percentile, ignoring outliers.
	P1to99 = "p1-99"
)

// AutoRange returns a Range fitted to the values of the picture v selects
// from t (every channel of a colour picture), ignoring null, NaN and
// infinite elements. mode is MinMax ("minmax") or a percentile pair "pLO-HI"
// with 0 <= LO < HI <= 100, such as P1to99 ("p1-99"); percentiles are
// computed as numpy.percentile does by default (linear interpolation
// between the closest ranks). An unrecognised mode is taken as "minmax".
//
// The range is Range{0, 1} when the view is invalid, the picture exceeds
// MaxImagePixels (Render refuses it too), the value type is not numeric or
// no finite value is shown; for constant values Min == Max. The percentile
// modes hold the shown values in memory (8 bytes each).
func AutoRange(t tensorext.Tensor, v View, mode string) Range {
	if v.Validate(t) != nil {
		return Range{0, 1}
	}
	get, ok := tensorext.Float64Reader(t.Values)
	if !ok {
		return Range{0, 1}
	}
	g := v.geom(t)
	if t.Check() != nil || (g.w > 0 && g.h > MaxImagePixels/g.w) {
		return Range{0, 1}
	}
	valid := validityOf(t.Values)
	lo, hi, percent := parseMode(mode)
	var vals []float64
	if percent {
		vals = make([]float64, 0, g.w*g.h*g.channels)
	}
	r := Range{math.Inf(1), math.Inf(-1)}
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			pos := g.base + y*g.sy + x*g.sx
			for c := 0; c < g.channels; c++ {
				q := pos + c*g.sc
				if valid.null(q) {
					continue
				}
				f := get(q)
				if math.IsNaN(f) || math.IsInf(f, 0) {
					continue
				}
				if percent {
					vals = append(vals, f)
				}
				if f < r.Min {
					r.Min = f
				}
				if f > r.Max {
					r.Max = f
				}
			}
		}
	}
	if r.Min > r.Max {
		return Range{0, 1}
	}
	if percent {
		r.Min, r.Max = percentiles(vals, lo, hi)
	}
	return r
}

// parseMode parses "pLO-HI"; percent is false for "minmax" and anything
// unrecognised.
func parseMode(mode string) (lo, hi float64, percent bool) {
	mode = strings.ToLower(strings.TrimSpace(mode))
	rest, ok := strings.CutPrefix(mode, "p")
	if !ok {
		return 0, 0, false
	}
	a, b, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseFloat(a, 64)
	hi, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil || !(0 <= lo && lo < hi && hi <= 100) {
		return 0, 0, false
	}
	return lo, hi, true
}

// percentiles returns the lo-th and hi-th percentiles (0 <= lo <= hi <=
// 100) of vals, reordering vals: numpy's default "linear" method,
// x[k] + frac*(x[k+1]-x[k]) at rank (n-1)*p/100 of the sorted values x. It
// runs in linear expected time (selection, not sorting); vals must be
// non-empty and hold no NaN.
func percentiles(vals []float64, lo, hi float64) (float64, float64) {
	a, k := percentileFrom(vals, 0, lo)
	// vals[k:] now holds the values ranked k and above: search only there.
	b, _ := percentileFrom(vals, k, hi)
	return a, b
}

// percentileFrom returns the p-th percentile of vals and the rank k it
// selected, given that no value in vals[:from] is larger than any in
// vals[from:] and that the percentile's rank is at least from.
func percentileFrom(vals []float64, from int, p float64) (float64, int) {
	n := len(vals)
	h := float64(n-1) * (p / 100)
	k := max(from, int(math.Floor(h)))
	if k >= n-1 {
		k = n - 1
		return selectKth(vals[from:], k-from), k
	}
	a := selectKth(vals[from:], k-from)
	frac := h - float64(k)
	if frac <= 0 {
		return a, k
	}
	b := vals[k+1]
	for _, v := range vals[k+2:] {
		if v < b {
			b = v
		}
	}
	// numpy's _lerp: a + (b-a)*frac, computed from the upper end when frac >= 0.5.
	d := b - a
	if frac >= 0.5 {
		return b - d*(1-frac), k
	}
	return a + d*frac, k
}

// selectKth reorders vals so that vals[k] is the k-th smallest, everything
// before it no larger and everything after it no smaller, and returns it.
// vals must hold no NaN.
func selectKth(vals []float64, k int) float64 {
	lo, hi := 0, len(vals)-1
	for hi > lo {
		// median of three as pivot
		mid := lo + (hi-lo)/2
		if vals[mid] < vals[lo] {
			vals[mid], vals[lo] = vals[lo], vals[mid]
		}
		if vals[hi] < vals[lo] {
			vals[hi], vals[lo] = vals[lo], vals[hi]
		}
		if vals[hi] < vals[mid] {
			vals[hi], vals[mid] = vals[mid], vals[hi]
		}
		pivot := vals[mid]
		// Hoare partition
		i, j := lo, hi
		for i <= j {
			for vals[i] < pivot {
				i++
			}
			for vals[j] > pivot {
				j--
			}
			if i <= j {
				vals[i], vals[j] = vals[j], vals[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return vals[k]
		}
	}
	return vals[k]
}

// Stats summarises the values of a whole tensor.
type Stats struct {
	// Count is the number of elements (product of the shape).
	Count int
	// Nulls, NaN, PosInf and NegInf count the null, NaN, +Inf and -Inf
	// elements.
	Nulls, NaN, PosInf, NegInf int
	// Finite is the number of the remaining (finite, non-null) elements,
	// over which Min, Max, Mean, Std and Hist are computed.
	Finite int
	// Min, Max, Mean and Std (population standard deviation, numpy.std's
	// default ddof=0) are in value units; NaN when Finite is 0.
	Min, Max, Mean, Std float64
	// Hist counts the finite values in len(Hist) equal bins from HistMin to
	// HistMax, as numpy.histogram does: bin i holds values in
	// [HistMin + i*w, HistMin + (i+1)*w), the last bin also HistMax. The range
	// is Min..Max, widened to Min-0.5..Max+0.5 for constant values and 0..1
	// when Finite is 0.
	Hist             []int
	HistMin, HistMax float64
}

// ComputeStats returns the statistics of every element of t (in any view
// order) with a histogram of bins bins (none when bins <= 0). Booleans read
// as 0 and 1; float16 is converted exactly; int64/uint64 beyond 2^53 lose
// precision. For a non-numeric value type only Count and Nulls are set
// (with Finite 0); for a malformed tensor (strides reaching outside its
// values) only Count. Mean and Std are computed in two passes (mean, then the
// squared deviations) for accuracy.
func ComputeStats(t tensorext.Tensor, bins int) Stats {
	s := Stats{Count: t.Len(), Min: math.NaN(), Max: math.NaN(), Mean: math.NaN(), Std: math.NaN(), HistMax: 1}
	if bins > 0 {
		s.Hist = make([]int, bins)
	}
	if t.Check() != nil {
		return s
	}
	valid := validityOf(t.Values)
	get, numeric := tensorext.Float64Reader(t.Values)
	if !numeric {
		if valid.bits != nil {
			t.Positions(func(pos int) bool {
				if valid.null(pos) {
					s.Nulls++
				}
				return true
			})
		}
		return s
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	t.Positions(func(pos int) bool {
		if valid.null(pos) {
			s.Nulls++
			return true
		}
		f := get(pos)
		switch {
		case f != f:
			s.NaN++
		case f > math.MaxFloat64:
			s.PosInf++
		case f < -math.MaxFloat64:
			s.NegInf++
		default:
			s.Finite++
			sum += f
			lo, hi = math.Min(lo, f), math.Max(hi, f)
		}
		return true
	})
	if s.Finite == 0 {
		s.HistMin, s.HistMax = 0, 1
		return s
	}
	s.Min, s.Max = lo, hi
	mean := sum / float64(s.Finite)
	if math.IsInf(mean, 0) { // the sum overflowed: average scaled values
		mean = 0
		t.Positions(func(pos int) bool {
			if f := get(pos); !valid.null(pos) && !math.IsNaN(f) && !math.IsInf(f, 0) {
				mean += f / float64(s.Finite)
			}
			return true
		})
	}
	var sq, comp float64
	s.HistMin, s.HistMax = lo, hi
	if lo == hi {
		s.HistMin, s.HistMax = lo-0.5, hi+0.5
	}
	norm := float64(bins) / (s.HistMax - s.HistMin)
	t.Positions(func(pos int) bool {
		if valid.null(pos) {
			return true
		}
		f := get(pos)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return true
		}
		d := f - mean
		sq += d * d
		comp += d
		if bins > 0 {
			s.Hist[s.bin(f, norm)]++
		}
		return true
	})
	n := float64(s.Finite)
	// corrected two-pass algorithm (Chan, Golub & LeVeque): subtracting
	// comp²/n removes the rounding error of the mean.
	s.Mean = mean
	s.Std = math.Sqrt(math.Max(0, (sq-comp*comp/n)/n))
	return s
}

// bin returns the histogram bin of a finite value within HistMin..HistMax,
// as numpy.histogram computes it: from the scaled offset, corrected against
// the bin edges HistMin + i*(HistMax-HistMin)/bins.
func (s *Stats) bin(f, norm float64) int {
	bins := len(s.Hist)
	i := int((f - s.HistMin) * norm)
	if i >= bins {
		i = bins - 1
	}
	if i < 0 {
		i = 0
	}
	if f < s.edge(i) {
		i--
	} else if i < bins-1 && f >= s.edge(i+1) {
		i++
	}
	return max(0, min(bins-1, i))
}

// edge returns the lower edge of histogram bin i (HistMax for i == bins), as
// numpy.linspace computes it.
func (s *Stats) edge(i int) float64 {
	bins := len(s.Hist)
	if i >= bins {
		return s.HistMax
	}
	return s.HistMin + float64(i)*((s.HistMax-s.HistMin)/float64(bins))
}
