package inspect

import (
	"context"
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

// ComputeColumnStats returns the statistics of rows tensors, row i read by
// tensor(i) (ok false for a null row, err for a row that cannot be read),
// with a histogram of bins bins. It makes two passes over the rows: the
// first for counts, range, mean and variance (per-row results merged with
// Chan et al.'s parallel formula), the second for the histogram.
//
// progress, when not nil, is called after every row with the rows done and
// to do over both passes (2×rows with a histogram, else rows). It stops with
// ctx's error, between rows, when ctx is done.
func ComputeColumnStats(ctx context.Context, rows int, tensor func(i int) (t tensorext.Tensor, ok bool, err error), bins int, progress func(done, total int)) (ColumnStats, error) {
	c := ColumnStats{Rows: rows}
	c.Min, c.Max, c.Mean, c.Std, c.HistMin, c.HistMax = math.NaN(), math.NaN(), math.NaN(), math.NaN(), 0, 1
	if bins > 0 {
		c.Hist = make([]int, bins)
	}
	var n, mean, m2 float64
	shapes := map[string]int{} // key → index in all
	var all []ShapeCount
	total := rows
	if bins > 0 {
		total = 2 * rows
	}
	step := func(done int) error {
		if progress != nil {
			progress(done, total)
		}
		return ctx.Err()
	}
	for i := 0; i < rows; i++ {
		if err := step(i); err != nil {
			return c, err
		}
		t, ok, err := tensor(i)
		switch {
		case err != nil:
			c.BadRows++
			continue
		case !ok:
			c.NullRows++
			continue
		}
		key := shapeKey(t.Shape)
		if k, seen := shapes[key]; seen {
			all[k].Rows++
		} else {
			shapes[key] = len(all)
			all = append(all, ShapeCount{Shape: slices.Clone(t.Shape), Rows: 1})
		}
		s := ComputeStats(t, 0)
		c.Count += s.Count
		c.Nulls += s.Nulls
		c.NaN += s.NaN
		c.PosInf += s.PosInf
		c.NegInf += s.NegInf
		if s.Finite == 0 {
			continue
		}
		if c.Finite == 0 {
			c.Min, c.Max = s.Min, s.Max
		} else {
			c.Min, c.Max = math.Min(c.Min, s.Min), math.Max(c.Max, s.Max)
		}
		c.Finite += s.Finite
		// Merge (n, mean, M2) with the row's (nb, Mean, Std²·nb).
		nb := float64(s.Finite)
		delta := s.Mean - mean
		tot := n + nb
		mean += delta * nb / tot
		m2 += s.Std*s.Std*nb + delta*delta*n*nb/tot
		n = tot
	}
	if c.Finite > 0 {
		c.Mean, c.Std = mean, math.Sqrt(math.Max(0, m2/n))
		c.HistMin, c.HistMax = c.Min, c.Max
		if c.Min == c.Max {
			c.HistMin, c.HistMax = c.Min-0.5, c.Max+0.5
		}
		if bins > 0 {
			if err := c.fillHistogram(rows, tensor, func(i int) error { return step(rows + i) }); err != nil {
				return c, err
			}
		}
	}
	slices.SortStableFunc(all, func(a, b ShapeCount) int { return b.Rows - a.Rows })
	if len(all) > MaxShapes {
		for _, s := range all[MaxShapes:] {
			c.OtherShapes += s.Rows
		}
		all = all[:MaxShapes]
	}
	c.Shapes = all
	return c, step(total)
}

// fillHistogram bins every finite value of every row into c.Hist, calling
// step before each row and stopping at its error.
func (c *ColumnStats) fillHistogram(rows int, tensor func(i int) (tensorext.Tensor, bool, error), step func(i int) error) error {
	norm := float64(len(c.Hist)) / (c.HistMax - c.HistMin)
	for i := 0; i < rows; i++ {
		if err := step(i); err != nil {
			return err
		}
		t, ok, err := tensor(i)
		if err != nil || !ok || t.Values == nil || t.Check() != nil {
			continue
		}
		valid := validityOf(t.Values)
		get, numeric := tensorext.Float64Reader(t.Values)
		if !numeric {
			continue
		}
		t.Positions(func(pos int) bool {
			if valid.null(pos) {
				return true
			}
			if f := get(pos); !math.IsNaN(f) && !math.IsInf(f, 0) {
				c.Hist[c.bin(f, norm)]++
			}
			return true
		})
	}
	return nil
}

func shapeKey(shape []int) string {
	b := make([]byte, 0, 8*len(shape))
	for _, d := range shape {
		b = append(b, byte(d), byte(d>>8), byte(d>>16), byte(d>>24), byte(d>>32), byte(d>>40), byte(d>>48), byte(d>>56))
	}
	return string(b)
}
