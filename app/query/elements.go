package query

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/tensorext"
)

// Element statistics (StatsOptions.Elements) are of every element of every
// tensor of a tensor or image column, as the inspector shows a tensor's
// (inspect.ComputeStats), merged over the rows, with the shapes the rows
// have: inspect.ColumnStats. They take two passes over the rows, the
// second binning the elements over the range the first found (an exact
// histogram): after a first pass of AddRange, NextPass starts the second,
// whose AddRange bins.

// OfElements reports whether these are element statistics.
func (s *Stats) OfElements() bool { return s.elems != nil }

// Passes is how many times the rows are read: 2 for element statistics
// (their histogram's pass), else 1.
func (s *Stats) Passes() int {
	if s.elems != nil {
		return 2
	}
	return 1
}

// NextPass ends a pass over the rows and reports whether another one is
// needed (the second of element statistics, when some element is finite).
func (s *Stats) NextPass() bool {
	if s.elems == nil || s.pass > 0 {
		return false
	}
	s.pass++
	return s.elems.StartHistogram()
}

// visitElements adds the tensor of each row of [start, end) of column col
// (array arr), read by ts, to the element statistics: counted in the first
// pass, binned in the second.
func (s *Stats) visitElements(ctx context.Context, ts Tensors, col int, arr arrow.Array, start, end int) error {
	for i := start; i < end; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if arr.IsNull(i) {
			s.elems.AddNull()
			continue
		}
		t, err := ts.Tensor(col, i)
		switch {
		case errors.Is(err, tensorext.ErrNullTensor):
			s.elems.AddNull()
		case err != nil:
			s.elems.AddBad()
			if s.pass == 0 {
				s.unevaluated++
				if s.firstErr == "" {
					s.firstErr = err.Error()
				}
			}
		case s.pass == 0:
			s.elems.Add(t)
		default:
			s.elems.AddToHistogram(t)
		}
	}
	return nil
}

// elementSummary is the element statistics so far.
func (s *Stats) elementSummary() *inspect.ColumnStats {
	if s.elems == nil {
		return nil
	}
	c := s.elems.Stats()
	return &c
}
