package query

import (
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/picture"
	"github.com/tensorview/tensorview/tensorext"
)

// shapeTest passes a tensor whose logical shape is one of its shapes.
type shapeTest [][]int64

func (t shapeTest) prepare(arrow.Array) (kernel, error) {
	return nil, errors.New("query: shape() tests tensors")
}

func (t shapeTest) has(shape []int) bool {
next:
	for _, s := range t {
		if len(s) != len(shape) {
			continue
		}
		for i, d := range s {
			if int64(shape[i]) != d {
				continue next
			}
		}
		return true
	}
	return false
}

// tensorKernel evaluates a tensor function on each row, reading the rows
// with ts; a row that cannot be read is unknown and counted.
func (bf *BatchFilter) tensorKernel(l *leaf, col int, ts Tensors) kernel {
	sizes, _ := ts.(ImageSizes)
	fn := l.op.fn
	if !bf.f.cols[l.op.col].Image {
		sizes = nil
	}
	return func(start, end int, m, v, unk []uint64) {
		for i := start; i < end; i++ {
			k := i - start
			bit := uint64(1) << uint(k%64)
			if v[k/64]&bit == 0 {
				continue
			}
			pass, err := bf.tensorRow(fn, l.test, ts, sizes, col, i)
			switch {
			case errors.Is(err, tensorext.ErrNullTensor):
				v[k/64] &^= bit
			case err != nil:
				v[k/64] &^= bit
				unk[k/64] |= bit
				bf.noteError(err)
			case pass:
				m[k/64] |= bit
			}
		}
	}
}

func (bf *BatchFilter) tensorRow(fn *tensorFn, test valueTest, ts Tensors, sizes ImageSizes, col, row int) (bool, error) {
	if sizes != nil && (fn.kind == fWidth || fn.kind == fHeight) {
		w, h, err := sizes.ImageSize(col, row)
		if err != nil {
			return false, rowErr(row, err)
		}
		x := float64(w)
		if fn.kind == fHeight {
			x = float64(h)
		}
		return test.(ordTest[float64]).has(x), nil
	}
	t, err := ts.Tensor(col, row)
	if err != nil {
		if errors.Is(err, tensorext.ErrNullTensor) {
			return false, err
		}
		return false, rowErr(row, err)
	}
	if fn.kind == fShape {
		return test.(shapeTest).has(t.LogicalShape()), nil
	}
	x, err := fn.value(t)
	if err != nil {
		return false, rowErr(row, err)
	}
	return test.(ordTest[float64]).has(x), nil
}

func rowErr(row int, err error) error { return fmt.Errorf("row %d: %w", row, err) }

// value computes the function (all but shape) of one tensor.
func (fn *tensorFn) value(t tensorext.Tensor) (float64, error) {
	if err := t.Check(); err != nil {
		return 0, err
	}
	switch fn.kind {
	case fSize:
		return float64(t.Len()), nil
	case fDim:
		shape := t.LogicalShape()
		if fn.dim >= len(shape) {
			return 0, fmt.Errorf("dim(%d) of a tensor of %d dimensions", fn.dim, len(shape))
		}
		return float64(shape[fn.dim]), nil
	case fWidth, fHeight:
		lt := t.Logical()
		l, ok := picture.Find(lt.Shape, lt.DimNames, t.ValueType())
		if !ok {
			return 0, fmt.Errorf("no picture in a tensor of shape %v", lt.Shape)
		}
		if fn.kind == fWidth {
			return float64(lt.Shape[l.W]), nil
		}
		return float64(lt.Shape[l.H]), nil
	}
	return numericStat(fn.kind, t)
}

// numericStat computes min, max, mean, std (population) or the count of
// NaN over a tensor's elements. Null and NaN elements are left out of the
// first four, which are NaN when no element is left.
func numericStat(kind fnKind, t tensorext.Tensor) (float64, error) {
	at, ok := tensorext.Float64Reader(t.Values)
	if !ok {
		return 0, fmt.Errorf("the values (%s) are not numbers", t.ValueType())
	}
	each := func(fn func(float64)) { eachElement(t, at, fn) }
	switch kind {
	case fNaN:
		n := 0
		each(func(x float64) {
			if x != x {
				n++
			}
		})
		return float64(n), nil
	case fMin, fMax:
		best := math.NaN()
		each(func(x float64) {
			if best != best || kind == fMin && x < best || kind == fMax && x > best {
				best = x
			}
		})
		return best, nil
	}
	var s sum
	n := 0
	each(func(x float64) {
		if x == x {
			s.add(x)
			n++
		}
	})
	if n == 0 {
		return math.NaN(), nil
	}
	mean := s.value() / float64(n)
	if kind == fMean {
		return mean, nil
	}
	var sq sum
	each(func(x float64) {
		if x == x {
			sq.add((x - mean) * (x - mean))
		}
	})
	return math.Sqrt(sq.value() / float64(n)), nil
}

// eachElement calls fn with each non-null element of t, read with at from
// its position in t.Values.
func eachElement(t tensorext.Tensor, at func(pos int) float64, fn func(float64)) {
	nulls := t.Values.NullN() > 0
	visit := func(pos int) bool {
		if nulls && t.Values.IsNull(pos) {
			return true
		}
		fn(at(pos))
		return true
	}
	if first, ok := contiguous(t); ok {
		for pos := first; pos < first+t.Len(); pos++ {
			visit(pos)
		}
		return
	}
	t.Positions(visit)
}

// contiguous reports whether t's elements fill the positions [first,
// first+Len()) (row-major with dense strides, the physical view of an
// array's row); the order does not matter to the statistics.
func contiguous(t tensorext.Tensor) (first int, ok bool) {
	want := 1
	for k := len(t.Shape) - 1; k >= 0; k-- {
		if t.Shape[k] != 1 && t.Strides[k] != want {
			return 0, false
		}
		want *= t.Shape[k]
	}
	return t.Offset, true
}

// sum adds floats with Neumaier's compensation.
type sum struct{ s, c float64 }

func (s *sum) add(x float64) {
	t := s.s + x
	if math.Abs(s.s) >= math.Abs(x) {
		s.c += (s.s - t) + x
	} else {
		s.c += (x - t) + s.s
	}
	s.s = t
}

func (s *sum) value() float64 {
	if math.IsInf(s.s, 0) || math.IsNaN(s.c) {
		return s.s
	}
	return s.s + s.c
}
