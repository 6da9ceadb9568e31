package inspect

import (
	"math"
	"slices"

	"github.com/tensorview/tensorview/tensorext"
)

// MaxShapes is how many distinct shapes ColumnStats lists.
const MaxShapes = 20

// ShapeCount is one shape of a column's tensors and how many rows have it.
type ShapeCount struct {
	Shape []int
	Rows  int
}

// ColumnStats summarises every tensor of a column.
type ColumnStats struct {
	// Stats is over every element of every non-null row, as ComputeStats
	// computes it for one tensor (Min, Max, Mean and Std of the finite
	// values; the histogram spans the column's Min..Max).
	Stats
	// Rows is the number of rows, NullRows the null ones among them and
	// BadRows those whose tensor could not be read.
	Rows, NullRows, BadRows int
	// Shapes lists the physical shapes, most frequent first (ties in order
	// of first appearance), at most MaxShapes of them; OtherShapes counts
	// the rows with shapes beyond those.
	Shapes      []ShapeCount
	OtherShapes int
}

// ColumnStatsBuilder computes a column's ColumnStats from its rows, in two
// passes: the first (Add, AddNull, AddBad for each row) counts the rows,
// shapes and elements and takes the range, mean and variance (each row's
// ComputeStats merged with the parallel formula of Chan, Golub & LeVeque);
// the second (AddToHistogram for each row again, after StartHistogram)
// bins every finite element over the column's range.
type ColumnStatsBuilder struct {
	c           ColumnStats
	n, mean, m2 float64        // the finite elements' count, mean and sum of squared deviations
	shapes      map[string]int // shape key → index in all
	all         []ShapeCount
	norm        float64 // bins per value unit, in the second pass
	first       bool    // the first pass has ended (StartHistogram)
	second      bool    // and a second one bins the elements
}

// NewColumnStatsBuilder starts the statistics of a column with a histogram
// of bins bins (none when bins <= 0).
func NewColumnStatsBuilder(bins int) *ColumnStatsBuilder {
	b := &ColumnStatsBuilder{shapes: map[string]int{}}
	b.c.Min, b.c.Max, b.c.Mean, b.c.Std, b.c.HistMin, b.c.HistMax = math.NaN(), math.NaN(), math.NaN(), math.NaN(), 0, 1
	if bins > 0 {
		b.c.Hist = make([]int, bins)
	}
	return b
}

// AddNull counts a null row in the first pass (nothing in the second).
func (b *ColumnStatsBuilder) AddNull() {
	if !b.first {
		b.c.Rows++
		b.c.NullRows++
	}
}

// AddBad counts a row whose tensor could not be read, in the first pass
// (nothing in the second).
func (b *ColumnStatsBuilder) AddBad() {
	if !b.first {
		b.c.Rows++
		b.c.BadRows++
	}
}

// Add adds a row's tensor in the first pass.
func (b *ColumnStatsBuilder) Add(t tensorext.Tensor) {
	if b.first {
		return
	}
	c := &b.c
	c.Rows++
	key := shapeKey(t.Shape)
	if k, seen := b.shapes[key]; seen {
		b.all[k].Rows++
	} else {
		b.shapes[key] = len(b.all)
		b.all = append(b.all, ShapeCount{Shape: slices.Clone(t.Shape), Rows: 1})
	}
	s := ComputeStats(t, 0)
	c.Count += s.Count
	c.Nulls += s.Nulls
	c.NaN += s.NaN
	c.PosInf += s.PosInf
	c.NegInf += s.NegInf
	if s.Finite == 0 {
		return
	}
	if c.Finite == 0 {
		c.Min, c.Max = s.Min, s.Max
	} else {
		c.Min, c.Max = math.Min(c.Min, s.Min), math.Max(c.Max, s.Max)
	}
	c.Finite += s.Finite
	nb := float64(s.Finite)
	delta := s.Mean - b.mean
	tot := b.n + nb
	b.mean += delta * nb / tot
	b.m2 += s.Std*s.Std*nb + delta*delta*b.n*nb/tot
	b.n = tot
}

// StartHistogram ends the first pass and reports whether a second one is
// needed (a histogram was asked for and some element is finite).
func (b *ColumnStatsBuilder) StartHistogram() bool {
	c := &b.c
	if b.first {
		return b.second
	}
	b.first = true
	if c.Finite > 0 {
		c.Mean, c.Std = b.mean, math.Sqrt(math.Max(0, b.m2/b.n))
		c.HistMin, c.HistMax = c.Min, c.Max
		if c.Min == c.Max {
			c.HistMin, c.HistMax = c.Min-0.5, c.Max+0.5
		}
	}
	b.second = len(c.Hist) > 0 && c.Finite > 0
	if b.second {
		b.norm = float64(len(c.Hist)) / (c.HistMax - c.HistMin)
	}
	return b.second
}

// AddToHistogram bins the finite elements of a row's tensor, in the
// second pass; null, unreadable and non-numeric tensors add nothing.
func (b *ColumnStatsBuilder) AddToHistogram(t tensorext.Tensor) {
	if !b.second || t.Values == nil || t.Check() != nil {
		return
	}
	get, numeric := tensorext.Float64Reader(t.Values)
	if !numeric {
		return
	}
	valid := validityOf(t.Values)
	t.Positions(func(pos int) bool {
		if valid.null(pos) {
			return true
		}
		if f := get(pos); !math.IsNaN(f) && !math.IsInf(f, 0) {
			b.c.Hist[b.c.bin(f, b.norm)]++
		}
		return true
	})
}

// Stats returns the statistics, complete once both passes are done (call
// StartHistogram even without a second pass): shapes most frequent first,
// ties in order of first appearance.
func (b *ColumnStatsBuilder) Stats() ColumnStats {
	c := b.c
	all := slices.Clone(b.all)
	slices.SortStableFunc(all, func(x, y ShapeCount) int { return y.Rows - x.Rows })
	if len(all) > MaxShapes {
		for _, s := range all[MaxShapes:] {
			c.OtherShapes += s.Rows
		}
		all = all[:MaxShapes]
	}
	c.Shapes = all
	c.Hist = slices.Clone(c.Hist)
	return c
}

func shapeKey(shape []int) string {
	b := make([]byte, 0, 8*len(shape))
	for _, d := range shape {
		b = append(b, byte(d), byte(d>>8), byte(d>>16), byte(d>>24), byte(d>>32), byte(d>>40), byte(d>>48), byte(d>>56))
	}
	return string(b)
}
