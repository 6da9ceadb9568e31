package tensorext

// This file copies tensor views to and from flat row-major slices and
// arrays.

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/nullarray"
)

// checkView validates a view's shape and strides against its Values and
// returns its element count and the lowest and highest positions it reads.
func checkView(t Tensor) (n, lo, hi int, err error) {
	if t.Values == nil {
		return 0, 0, 0, errors.New("tensorext: tensor has no values")
	}
	if len(t.Strides) != len(t.Shape) {
		return 0, 0, 0, fmt.Errorf("tensorext: %d strides for %d dimensions", len(t.Strides), len(t.Shape))
	}
	n, ok := product(t.Shape)
	if !ok {
		return 0, 0, 0, fmt.Errorf("tensorext: shape %s is negative or too large", FormatShape(t.Shape))
	}
	lo, hi = t.Offset, t.Offset
	if n == 0 {
		return 0, lo, hi, nil
	}
	for k, d := range t.Shape {
		if e := (d - 1) * t.Strides[k]; e < 0 {
			lo += e
		} else {
			hi += e
		}
	}
	if lo < 0 || hi >= t.Values.Len() {
		return 0, 0, 0, fmt.Errorf("tensorext: view reads positions [%d, %d] of a values array of length %d", lo, hi, t.Values.Len())
	}
	return n, lo, hi, nil
}

// CopyContiguous returns a new flat array holding the n = product(t.Shape)
// elements of the view t in t's own row-major order (the last index varies
// fastest), with the value type of t.Values and its nulls. Call it on
// t.Logical() for the logical layout the spec defines (spec "Canonical
// Extension Types › Fixed shape tensor": numpy.transpose(physical,
// permutation)), on the physical view for the stored row-major layout. A 0-D
// view gives one element. mem allocates the new buffers; nil means
// memory.DefaultAllocator. The caller releases the result.
//
// Fixed-width types (every integer and float type including float16,
// decimals, dates, times, timestamps, durations, intervals and
// fixed_size_binary) are copied by strided loops over the raw value buffer,
// with plain copies for unit-stride runs; boolean values and validity are
// copied bit by bit (whole bitmaps for unit-stride runs). An extension value
// type is copied through its storage. Other types (strings, lists, ...) go
// through array.Concatenate of slices, which is much slower.
//
// It returns an error when len(t.Strides) != len(t.Shape), a dimension is
// negative, or the view reads outside t.Values; strides may be negative or
// zero.
func CopyContiguous(mem memory.Allocator, t Tensor) (arrow.Array, error) {
	n, _, _, err := checkView(t)
	if err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	blocks := func(fn func(block)) {
		if n > 0 {
			forEachBlock(t.Offset, t.Shape, t.Strides, fn)
		}
	}
	return copyFlat(mem, t.Values, n, flatSource{blocks: blocks, view: &t})
}

// flatSource says which elements copyFlat copies: blocks enumerates them in
// destination order, as blocks of values. When view is set, the same
// elements are the strided view (view.Offset, view.Shape, view.Strides),
// which copyBlocksBytes copies with gather: that can tile across blocks.
type flatSource struct {
	blocks func(func(block))
	view   *Tensor
}

// copyFlat builds a new array of n elements of values' type from the
// elements of values that src names. Filler blocks become zero values (nulls
// for types that are not fixed-width).
func copyFlat(mem memory.Allocator, values arrow.Array, n int, src flatSource) (arrow.Array, error) {
	blocks := src.blocks
	dt := values.DataType()
	if ext, ok := values.(array.ExtensionArray); ok {
		st, err := copyFlat(mem, ext.Storage(), n, src)
		if err != nil {
			return nil, err
		}
		defer st.Release()
		return array.NewExtensionArrayWithStorage(dt.(arrow.ExtensionType), st), nil
	}
	if dt.ID() == arrow.NULL {
		return array.NewNull(n), nil
	}
	data := values.Data()
	layout := dt.Layout()
	fixed := !layout.HasDict && dt.ID() != arrow.DICTIONARY && len(layout.Buffers) == 2 &&
		layout.Buffers[0].Kind == arrow.KindBitmap &&
		(layout.Buffers[1].Kind == arrow.KindFixedWidth && layout.Buffers[1].ByteWidth > 0 || dt.ID() == arrow.BOOL)
	if !fixed {
		return copyFlatGeneric(mem, values, n, blocks)
	}

	bufs := data.Buffers()
	off := data.Offset()
	var srcValues []byte
	if bufs[1] != nil {
		srcValues = bufs[1].Bytes()
	}
	// Guard against a value buffer shorter than its array claims: need is
	// one past the highest position a block reads (the callers checked the
	// positions against values.Len()).
	need := 0
	blocks(func(b block) {
		if b.pos >= 0 {
			need = max(need, b.pos+max(0, (b.n1-1)*b.s1)+max(0, (b.n0-1)*b.s0)+1)
		}
	})
	var out *memory.Buffer
	if dt.ID() == arrow.BOOL {
		if int(bitutil.BytesForBits(int64(off+need))) > len(srcValues) {
			return nil, fmt.Errorf("tensorext: boolean value buffer of %d bytes is too short for %d elements at offset %d",
				len(srcValues), need, off)
		}
		out = newZeroedBuffer(mem, int(bitutil.BytesForBits(int64(n))))
		copyBlocksBits(out.Bytes(), srcValues, off, false, blocks)
	} else {
		w := layout.Buffers[1].ByteWidth
		if (off+need)*w > len(srcValues) {
			return nil, fmt.Errorf("tensorext: value buffer of %d bytes is too short for %d elements of %d bytes at offset %d",
				len(srcValues), need, w, off)
		}
		out = memory.NewResizableBuffer(mem)
		out.Resize(n * w)
		copyBlocksBytes(out.Bytes(), srcValues[off*w:], w, src)
	}
	defer out.Release()

	var validity *memory.Buffer
	nulls := 0
	if values.NullN() > 0 && bufs[0] != nil {
		validity = newZeroedBuffer(mem, int(bitutil.BytesForBits(int64(n))))
		defer validity.Release()
		copyBlocksBits(validity.Bytes(), bufs[0].Bytes(), off, true, blocks)
		nulls = n - bitutil.CountSetBits(validity.Bytes(), 0, n)
		if nulls == 0 {
			validity = nil
		}
	}
	res := array.NewData(dt, n, []*memory.Buffer{validity, out}, nil, nulls, 0)
	defer res.Release()
	return array.MakeFromData(res), nil
}

// copyFlatGeneric concatenates slices of values, one per unit-stride row
// (one per element otherwise).
func copyFlatGeneric(mem memory.Allocator, values arrow.Array, n int, blocks func(func(block))) (arrow.Array, error) {
	if n == 0 {
		return nullarray.Make(mem, values.DataType(), 0), nil
	}
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	blocks(func(b block) {
		if b.pos < 0 {
			parts = append(parts, nullarray.Make(mem, values.DataType(), b.n1*b.n0))
			return
		}
		for i := 0; i < b.n1; i++ {
			p := b.pos + i*b.s1
			if b.s0 == 1 {
				parts = append(parts, array.NewSlice(values, int64(p), int64(p+b.n0)))
				continue
			}
			for j := 0; j < b.n0; j++ {
				parts = append(parts, array.NewSlice(values, int64(p), int64(p+1)))
				p += b.s0
			}
		}
	})
	out, err := array.Concatenate(parts, mem)
	if err != nil {
		return nil, fmt.Errorf("tensorext: cannot copy values of type %s: %w", values.DataType(), err)
	}
	return out, nil
}

func newZeroedBuffer(mem memory.Allocator, size int) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(size)
	clear(b.Bytes())
	return b
}
