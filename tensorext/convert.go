package tensorext

// Conversions between tensor views, flat arrays, arrow-go tensors, strided Go
// buffers and the two tensor extension types.
//
// Everything here follows the spec's definition of the logical layout (Arrow
// format docs, CanonicalExtensions.rst, cited as spec "Canonical Extension
// Types › Fixed shape tensor" and "› Variable shape tensor"): values are
// stored row-major in the physical shape, and the logical view is
// numpy.transpose(physical, permutation), so logical dimension i is physical
// dimension permutation[i].

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"
)

// ---------------------------------------------------------------------------
// Strided iteration

// block is a two-dimensional strided piece of a source: n1 rows of n0
// elements, element (i1, i0) at position pos + i1*s1 + i0*s0, copied to the
// next n1*n0 consecutive destination slots. pos < 0 marks a filler block with
// no source: its slots are cleared.
type block struct{ pos, n1, s1, n0, s0 int }

// coalesce simplifies a strided layout without changing its row-major
// element order: it drops dimensions of size 1 and merges a dimension into
// the next inner one when stride[outer] == stride[inner]*shape[inner]. The
// result lists dimensions outer to inner. The shape must have no zero.
func coalesce(shape, strides []int) (cs, cst []int) {
	for k, n := range shape {
		if n == 1 {
			continue
		}
		if last := len(cs) - 1; last >= 0 && cst[last] == strides[k]*n {
			cs[last] *= n
			cst[last] = strides[k]
			continue
		}
		cs = append(cs, n)
		cst = append(cst, strides[k])
	}
	return cs, cst
}

// forEachBlock calls fn with the blocks of the tensor at offset with shape and
// strides, in row-major order of shape, so that the blocks' destination slots
// follow each other from 0. The last two (coalesced) dimensions form a block;
// an odometer walks the others. shape must have no zero.
func forEachBlock(offset int, shape, strides []int, fn func(block)) {
	cs, cst := coalesce(shape, strides)
	m := len(cs)
	switch m {
	case 0:
		fn(block{pos: offset, n1: 1, n0: 1, s0: 1})
		return
	case 1:
		fn(block{pos: offset, n1: 1, n0: cs[0], s0: cst[0]})
		return
	}
	b := block{pos: offset, n1: cs[m-2], s1: cst[m-2], n0: cs[m-1], s0: cst[m-1]}
	outer, ostr := cs[:m-2], cst[:m-2]
	idx := make([]int, len(outer))
	for {
		fn(b)
		k := len(outer) - 1
		for ; k >= 0; k-- {
			idx[k]++
			b.pos += ostr[k]
			if idx[k] < outer[k] {
				break
			}
			b.pos -= idx[k] * ostr[k]
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// gather copies the elements of the strided tensor (offset, shape, strides)
// over src into dst, which has exactly product(shape) elements, in row-major
// order of shape. The positions must be valid in src.
func gather[T any](dst, src []T, offset int, shape, strides []int) {
	if len(dst) == 0 {
		return
	}
	d := 0
	forEachBlock(offset, shape, strides, func(b block) {
		k := b.n1 * b.n0
		gather2(dst[d:d+k], src, b)
		d += k
	})
}

// gather2 copies one block into dst (len n1*n0).
func gather2[T any](dst, src []T, b block) {
	n0, s0 := b.n0, b.s0
	switch {
	case s0 == 1:
		pos := b.pos
		for i := 0; i < b.n1; i++ {
			copy(dst[i*n0:(i+1)*n0], src[pos:pos+n0])
			pos += b.s1
		}
	case b.s1 == 1 && b.n1 <= 4 && s0 >= b.n1:
		// A small interleaved axis read as the outer one (channels last read
		// as channels first): walk the source once, in order, and write n1
		// streams.
		deinterleave(dst, src, b.pos, b.n1, n0, s0)
	case b.s1 == 1 && n0 <= 4 && s0 >= n0:
		// The converse (channels first read as channels last): read n0
		// streams once, in order, and write dst in order.
		interleave(dst, src, b.pos, b.n1, n0, s0)
	default:
		pos := b.pos
		for i := 0; i < b.n1; i++ {
			row := dst[i*n0 : (i+1)*n0]
			p := pos
			for j := range row {
				row[j] = src[p]
				p += s0
			}
			pos += b.s1
		}
	}
}

// deinterleave writes dst[c*n + j] = src[pos + j*step + c] for c < nc, j < n
// (nc <= 4 <= step).
func deinterleave[T any](dst, src []T, pos, nc, n, step int) {
	src = src[pos : pos+(n-1)*step+nc]
	switch nc {
	case 2:
		d0, d1 := dst[:n], dst[n:2*n]
		d1 = d1[:len(d0)]
		for j := range d0 {
			s := src[j*step : j*step+2]
			d0[j], d1[j] = s[0], s[1]
		}
	case 3:
		d0, d1, d2 := dst[:n], dst[n:2*n], dst[2*n:3*n]
		d1, d2 = d1[:len(d0)], d2[:len(d0)]
		for j := range d0 {
			s := src[j*step : j*step+3]
			d0[j], d1[j], d2[j] = s[0], s[1], s[2]
		}
	case 4:
		d0, d1, d2, d3 := dst[:n], dst[n:2*n], dst[2*n:3*n], dst[3*n:4*n]
		d1, d2, d3 = d1[:len(d0)], d2[:len(d0)], d3[:len(d0)]
		for j := range d0 {
			s := src[j*step : j*step+4]
			d0[j], d1[j], d2[j], d3[j] = s[0], s[1], s[2], s[3]
		}
	default: // nc == 1
		d0 := dst[:n]
		for j := range d0 {
			d0[j] = src[j*step]
		}
	}
}

// interleave writes dst[j*nc + c] = src[pos + c*step + j] for c < nc, j < n
// (nc <= 4 <= step).
func interleave[T any](dst, src []T, pos, n, nc, step int) {
	switch nc {
	case 2:
		s0, s1 := src[pos:pos+n], src[pos+step:pos+step+n]
		s1 = s1[:len(s0)]
		for j := range s0 {
			d := dst[2*j : 2*j+2]
			d[0], d[1] = s0[j], s1[j]
		}
	case 3:
		s0, s1, s2 := src[pos:pos+n], src[pos+step:pos+step+n], src[pos+2*step:pos+2*step+n]
		s1, s2 = s1[:len(s0)], s2[:len(s0)]
		for j := range s0 {
			d := dst[3*j : 3*j+3]
			d[0], d[1], d[2] = s0[j], s1[j], s2[j]
		}
	case 4:
		s0, s1, s2, s3 := src[pos:pos+n], src[pos+step:pos+step+n], src[pos+2*step:pos+2*step+n], src[pos+3*step:pos+3*step+n]
		s1, s2, s3 = s1[:len(s0)], s2[:len(s0)], s3[:len(s0)]
		for j := range s0 {
			d := dst[4*j : 4*j+4]
			d[0], d[1], d[2], d[3] = s0[j], s1[j], s2[j], s3[j]
		}
	default: // nc == 1
		copy(dst[:n], src[pos:pos+n])
	}
}

// castSlice reinterprets a byte slice as a slice of T.
func castSlice[T any](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) < size {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size)
}

// aligned reports whether b's data is aligned to a.
func aligned(b []byte, a uintptr) bool {
	return len(b) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%a == 0
}

// copyBlocksBytes copies blocks of w-byte elements from src to dst. Filler
// blocks are zeroed.
func copyBlocksBytes(dst, src []byte, w int, blocks func(func(block))) {
	d := 0
	word := func(b block, k int, copyFn func(block, int)) {
		if b.pos < 0 {
			clear(dst[d*w : (d+k)*w])
		} else {
			copyFn(b, d)
		}
	}
	typed := func(size uintptr, fn func(b block, d int)) bool {
		if !aligned(dst, size) || !aligned(src, size) {
			return false
		}
		blocks(func(b block) {
			k := b.n1 * b.n0
			word(b, k, fn)
			d += k
		})
		return true
	}
	switch w {
	case 1:
		if typed(1, func(b block, d int) { gather2(dst[d:d+b.n1*b.n0], src, b) }) {
			return
		}
	case 2:
		ds, ss := castSlice[uint16](dst), castSlice[uint16](src)
		if typed(2, func(b block, d int) { gather2(ds[d:d+b.n1*b.n0], ss, b) }) {
			return
		}
	case 4:
		ds, ss := castSlice[uint32](dst), castSlice[uint32](src)
		if typed(4, func(b block, d int) { gather2(ds[d:d+b.n1*b.n0], ss, b) }) {
			return
		}
	case 8:
		ds, ss := castSlice[uint64](dst), castSlice[uint64](src)
		if typed(8, func(b block, d int) { gather2(ds[d:d+b.n1*b.n0], ss, b) }) {
			return
		}
	case 16:
		ds, ss := castSlice[[2]uint64](dst), castSlice[[2]uint64](src)
		if typed(8, func(b block, d int) { gather2(ds[d:d+b.n1*b.n0], ss, b) }) {
			return
		}
	}
	// Any width, any alignment: an element is an extra innermost dimension
	// of w bytes with stride 1.
	d = 0
	blocks(func(b block) {
		k := b.n1 * b.n0
		if b.pos < 0 {
			clear(dst[d*w : (d+k)*w])
		} else {
			gather(dst[d*w:(d+k)*w], src, b.pos*w, []int{b.n1, b.n0, w}, []int{b.s1 * w, b.s0 * w, 1})
		}
		d += k
	})
}

// copyBlocksBits copies blocks of bits from src (bit offset srcOff) to dst
// (from bit 0, which must be zeroed). Filler blocks are set to fill.
func copyBlocksBits(dst, src []byte, srcOff int, fill bool, blocks func(func(block))) {
	d := 0
	blocks(func(b block) {
		switch {
		case b.pos < 0:
			if fill {
				bitutil.SetBitsTo(dst, int64(d), int64(b.n1*b.n0), true)
			}
			d += b.n1 * b.n0
		case b.s0 == 1:
			pos := b.pos
			for i := 0; i < b.n1; i++ {
				bitutil.CopyBitmap(src, srcOff+pos, b.n0, dst, d)
				d += b.n0
				pos += b.s1
			}
		default:
			pos := srcOff + b.pos
			for i := 0; i < b.n1; i++ {
				p := pos
				for j := 0; j < b.n0; j++ {
					if bitutil.BitIsSet(src, p) {
						bitutil.SetBit(dst, d)
					}
					d++
					p += b.s0
				}
				pos += b.s1
			}
		}
	})
}

// ---------------------------------------------------------------------------
// Flat copies

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
		return 0, 0, 0, fmt.Errorf("tensorext: shape %s is negative or too large", formatInts(t.Shape))
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
	return copyFlat(mem, t.Values, n, blocks)
}

// copyFlat builds a new array of n elements of values' type from the blocks
// of values that blocks enumerates (in destination order). Filler blocks
// become zero values (nulls for types that are not fixed-width).
func copyFlat(mem memory.Allocator, values arrow.Array, n int, blocks func(func(block))) (arrow.Array, error) {
	dt := values.DataType()
	if ext, ok := values.(array.ExtensionArray); ok {
		st, err := copyFlat(mem, ext.Storage(), n, blocks)
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
		copyBlocksBytes(out.Bytes(), srcValues[off*w:], w, blocks)
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
		return array.MakeArrayOfNull(mem, values.DataType(), 0), nil
	}
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	blocks(func(b block) {
		if b.pos < 0 {
			parts = append(parts, array.MakeArrayOfNull(mem, values.DataType(), b.n1*b.n0))
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

// ---------------------------------------------------------------------------
// arrow-go tensors (github.com/apache/arrow-go/v18/arrow/tensor)

// ToArrowTensor returns the view t as an arrow-go tensor (package
// github.com/apache/arrow-go/v18/arrow/tensor), in t's own dimension order:
// pass t.Logical() for the logical layout of the spec (spec "Canonical
// Extension Types › Fixed shape tensor"), the physical view for the stored
// one. Its shape is t.Shape, its strides t.Strides times the element
// size (arrow-go tensor strides are in bytes) and its dimension names
// t.DimNames (empty strings when nil).
//
// It copies nothing when every stride is non-negative: the tensor shares
// t.Values' buffer (a slice of it starting at the element at index 0), so
// the logical view of a permuted row is a zero-copy tensor with
// non-row-major strides (IsContiguous false). An arrow-go tensor cannot start
// anywhere but at its lowest element, so a view with a negative stride is
// copied (CopyContiguous, memory.DefaultAllocator) into a new row-major
// tensor.
//
// arrow-go tensors cannot hold nulls: it returns an error naming the index of
// the first null element of the view (nulls outside the view do not matter).
// It also returns an error for value types arrow-go tensors do not support
// (they support int8-64, uint8-64, float32, float64, date32 and date64; not
// float16 or bool) and for views that checkView rejects. The caller releases
// the tensor.
func ToArrowTensor(t Tensor) (tensor.Interface, error) {
	n, lo, hi, err := checkView(t)
	if err != nil {
		return nil, err
	}
	dt := t.Values.DataType()
	if !arrowTensorType(dt) {
		return nil, fmt.Errorf("tensorext: arrow-go tensors do not support value type %s", dt)
	}
	if t.Values.NullN() > 0 {
		k := 0
		var bad []int
		t.Positions(func(pos int) bool {
			if t.Values.IsNull(pos) {
				bad = unravel(k, t.Shape)
				return false
			}
			k++
			return true
		})
		if bad != nil {
			return nil, fmt.Errorf("tensorext: element at index %s is null; arrow-go tensors cannot hold nulls", formatInts(bad))
		}
	}
	names := cloneStrings(t.DimNames)
	shape := make([]int64, len(t.Shape))
	for k, d := range t.Shape {
		shape[k] = int64(d)
	}
	bw := int64(dt.(arrow.FixedWidthDataType).BitWidth() / 8)
	negative := false
	for _, s := range t.Strides {
		negative = negative || s < 0
	}
	if negative {
		flat, err := CopyContiguous(memory.DefaultAllocator, t)
		if err != nil {
			return nil, err
		}
		defer flat.Release()
		strides := make([]int64, len(shape))
		for k, s := range rowMajorStrides(t.Shape) {
			strides[k] = int64(s) * bw
		}
		return tensor.New(flat.Data(), shape, strides, names), nil
	}
	if n == 0 { // an empty slice at the offset, clamped into the array
		lo = min(max(lo, 0), t.Values.Len())
		hi = lo - 1
	}
	data := array.NewSliceData(t.Values.Data(), int64(lo), int64(hi+1))
	defer data.Release()
	strides := make([]int64, len(shape))
	for k, s := range t.Strides {
		strides[k] = int64(s) * bw
	}
	return tensor.New(data, shape, strides, names), nil
}

// arrowTensorType reports whether arrow-go's tensor.New accepts dt.
func arrowTensorType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.DATE32, arrow.DATE64:
		return true
	}
	return false
}

// unravel returns the row-major index of flat position k in shape.
func unravel(k int, shape []int) []int {
	idx := make([]int, len(shape))
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] > 0 {
			idx[i] = k % shape[i]
			k /= shape[i]
		}
	}
	return idx
}

// arrowTensorView returns a Tensor over src's values with src's shape and
// strides in elements, and the array it reads, which the caller releases.
func arrowTensorView(src tensor.Interface) (Tensor, arrow.Array, error) {
	if src == nil || src.Data() == nil {
		return Tensor{}, nil, errors.New("tensorext: nil arrow tensor")
	}
	dt := src.DataType()
	fw, ok := dt.(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 || fw.BitWidth() == 0 {
		return Tensor{}, nil, fmt.Errorf("tensorext: arrow tensor value type %s is not byte-sized", dt)
	}
	bw := int64(fw.BitWidth() / 8)
	shape := make([]int, len(src.Shape()))
	for k, d := range src.Shape() {
		shape[k] = int(d)
	}
	var strides []int
	if bs := src.Strides(); len(bs) == 0 && len(shape) > 0 {
		strides = rowMajorStrides(shape)
	} else {
		if len(bs) != len(shape) {
			return Tensor{}, nil, fmt.Errorf("tensorext: arrow tensor has %d strides for %d dimensions", len(bs), len(shape))
		}
		strides = make([]int, len(bs))
		for k, s := range bs {
			if s < 0 || s%bw != 0 {
				return Tensor{}, nil, fmt.Errorf("tensorext: arrow tensor stride %d is not a non-negative multiple of the %d-byte element size", s, bw)
			}
			strides[k] = int(s / bw)
		}
	}
	vals := array.MakeFromData(src.Data())
	v := Tensor{Values: vals, Shape: shape, Strides: strides, DimNames: src.DimNames()}
	if _, _, _, err := checkView(v); err != nil {
		vals.Release()
		return Tensor{}, nil, err
	}
	return v, vals, nil
}

// appendView appends the elements of v in its row-major order to the value
// builder vb, with v's nulls. It checks everything first and calls start just
// before appending, so that on error nothing is appended.
func appendView(vb array.Builder, v Tensor, start func()) error {
	switch v.Values.DataType().ID() {
	case arrow.INT8:
		return appendGathered[int8](vb, v, start)
	case arrow.INT16:
		return appendGathered[int16](vb, v, start)
	case arrow.INT32:
		return appendGathered[int32](vb, v, start)
	case arrow.INT64:
		return appendGathered[int64](vb, v, start)
	case arrow.UINT8:
		return appendGathered[uint8](vb, v, start)
	case arrow.UINT16:
		return appendGathered[uint16](vb, v, start)
	case arrow.UINT32:
		return appendGathered[uint32](vb, v, start)
	case arrow.UINT64:
		return appendGathered[uint64](vb, v, start)
	case arrow.FLOAT16:
		return appendGathered[float16.Num](vb, v, start)
	case arrow.FLOAT32:
		return appendGathered[float32](vb, v, start)
	case arrow.FLOAT64:
		return appendGathered[float64](vb, v, start)
	case arrow.DATE32:
		return appendGathered[arrow.Date32](vb, v, start)
	case arrow.DATE64:
		return appendGathered[arrow.Date64](vb, v, start)
	}
	return fmt.Errorf("tensorext: cannot append values of type %s", v.Values.DataType())
}

func appendGathered[T any](vb array.Builder, v Tensor, start func()) error {
	ab, ok := vb.(interface{ AppendValues([]T, []bool) })
	if !ok || !arrow.TypeEqual(vb.Type(), v.Values.DataType()) {
		return fmt.Errorf("tensorext: cannot append values of type %s to a builder of %s", v.Values.DataType(), vb.Type())
	}
	n := v.Len()
	out := make([]T, n)
	if n > 0 {
		data := v.Values.Data()
		buf := data.Buffers()[1]
		if buf == nil {
			return errors.New("tensorext: arrow tensor has no value buffer")
		}
		src := castSlice[T](buf.Bytes())
		if data.Offset()+v.Values.Len() > len(src) {
			return fmt.Errorf("tensorext: arrow tensor value buffer of %d bytes is too short", buf.Len())
		}
		gather(out, src[data.Offset():], v.Offset, v.Shape, v.Strides)
	}
	var valid []bool
	if v.Values.NullN() > 0 {
		valid = make([]bool, 0, n)
		v.Positions(func(pos int) bool {
			valid = append(valid, v.Values.IsValid(pos))
			return true
		})
	}
	start()
	ab.AppendValues(out, valid)
	return nil
}

// physicalFromLogical returns the physical view of a logical tensor v under
// perm: physical dimension perm[i] is logical dimension i, so physical
// dimension j has the strides of logical dimension inv[j], inv[perm[i]] = i.
func physicalFromLogical(v Tensor, perm []int) Tensor {
	if perm == nil {
		return v
	}
	p := v
	p.Shape = make([]int, len(perm))
	p.Strides = make([]int, len(perm))
	for i, j := range perm {
		p.Shape[j] = v.Shape[i]
		p.Strides[j] = v.Strides[i]
	}
	return p
}

// AppendArrowTensor appends src, an arrow-go tensor with any non-negative
// byte strides (row-major, column-major or strided), as one row of b in
// physical row-major order (spec "Canonical Extension Types › Fixed shape
// tensor"): src's shape must equal the type's physical shape and its element at index
// (i0, ..., in-1) becomes the row's physical element at that index. Use
// AppendLogicalArrowTensor for a tensor in the logical layout. Nulls in src's
// data, which arrow-go tensors normally lack, are kept. It returns an error,
// appending nothing, when the value types differ, the shape differs, a stride
// is negative or not a multiple of the element size, or src's data is too
// short for its shape and strides.
func AppendArrowTensor(b *FixedShapeTensorBuilder, src tensor.Interface) error {
	return appendArrowTensorFixed(b, src, false)
}

// AppendLogicalArrowTensor appends src as one row of b whose logical view
// (numpy.transpose(physical, permutation), spec "Canonical Extension Types ›
// Fixed shape tensor") equals src: src's shape must be the type's
// LogicalShape, and the values are stored transposed into physical row-major
// order. It is the
// inverse of ToArrowTensor(row.Logical()). Errors are AppendArrowTensor's.
func AppendLogicalArrowTensor(b *FixedShapeTensorBuilder, src tensor.Interface) error {
	return appendArrowTensorFixed(b, src, true)
}

func appendArrowTensorFixed(b *FixedShapeTensorBuilder, src tensor.Interface, logical bool) error {
	v, vals, err := arrowTensorView(src)
	if err != nil {
		return err
	}
	defer vals.Release()
	typ := b.typ
	if !arrow.TypeEqual(src.DataType(), typ.ValueType()) {
		return fmt.Errorf("tensorext: cannot append a tensor of %s to a tensor column of %s", src.DataType(), typ.ValueType())
	}
	want, which := typ.shape, "physical"
	if logical {
		want, which = typ.LogicalShape(), "logical"
		v = physicalFromLogical(v, typ.permutation)
	}
	if !slices.Equal(v.Shape, typ.shape) {
		return fmt.Errorf("tensorext: tensor shape %s does not match the %s shape %s", formatInts(shapeOf(src)), which, formatInts(want))
	}
	return appendView(b.ValueBuilder(), v, func() { b.Append(true) })
}

func shapeOf(src tensor.Interface) []int {
	s := make([]int, len(src.Shape()))
	for k, d := range src.Shape() {
		s[k] = int(d)
	}
	return s
}

// AppendArrowTensorVariable appends src, an arrow-go tensor with any
// non-negative byte strides, as one row of the variable shape tensor builder
// b (spec "Canonical Extension Types › Variable shape tensor"): src's shape
// becomes the row's physical shape and its values are stored row-major. It returns an
// error, appending nothing, when the value types differ, src's number of
// dimensions is not the type's ndim, the shape disagrees with uniform_shape,
// or src's strides or data are unusable (see AppendArrowTensor).
func AppendArrowTensorVariable(b *VariableShapeTensorBuilder, src tensor.Interface) error {
	return appendArrowTensorVariable(b, src, false)
}

// AppendLogicalArrowTensorVariable appends src as one row of b whose logical
// view equals src: the row's physical shape is shape[permutation[i]] =
// src.Shape()[i] and the values are stored transposed into physical
// row-major order. Errors are AppendArrowTensorVariable's.
func AppendLogicalArrowTensorVariable(b *VariableShapeTensorBuilder, src tensor.Interface) error {
	return appendArrowTensorVariable(b, src, true)
}

func appendArrowTensorVariable(b *VariableShapeTensorBuilder, src tensor.Interface, logical bool) error {
	v, vals, err := arrowTensorView(src)
	if err != nil {
		return err
	}
	defer vals.Release()
	typ := b.typ
	if !arrow.TypeEqual(src.DataType(), typ.ValueType()) {
		return fmt.Errorf("tensorext: cannot append a tensor of %s to a tensor column of %s", src.DataType(), typ.ValueType())
	}
	if len(v.Shape) != typ.ndim {
		return fmt.Errorf("tensorext: tensor shape %s must have %d dimensions", formatInts(v.Shape), typ.ndim)
	}
	if logical {
		v = physicalFromLogical(v, typ.permutation)
	}
	if err := b.checkShape(v.Shape, "physical shape"); err != nil {
		return err
	}
	st, data, shapes, err := b.storage()
	if err != nil {
		return err
	}
	return appendView(data.ValueBuilder(), v, func() { startRow(st, data, shapes, v.Shape) })
}

// ---------------------------------------------------------------------------
// Strided Go buffers

// Element is the set of Go element types that FromStrided and
// FixedShapeTensorBuilder.AppendTensor accept, one per supported Arrow value
// type: uint8 … int64, float16.Num, float32, float64 and bool.
type Element interface {
	uint8 | int8 | uint16 | int16 | uint32 | int32 | uint64 | int64 | float16.Num | float32 | float64 | bool
}

// RowMajor is a tensor laid out for storage in a tensor extension column
// (spec "Canonical Extension Types › Fixed shape tensor"): Values holds the
// elements row-major in the physical Shape, and Permutation (nil for the identity)
// gives the logical view numpy.transpose(physical, Permutation). DimNames, in
// physical order, is nil when no names were given.
type RowMajor[T Element] struct {
	// Shape is the physical shape.
	Shape []int
	// Permutation maps logical dimension i to physical dimension
	// Permutation[i]; nil when the logical and physical orders agree.
	Permutation []int
	// DimNames names the physical dimensions; nil when unnamed.
	DimNames []string
	// Values holds product(Shape) elements in physical row-major order.
	Values []T
}

// ValueTypeOf returns the Arrow value type of the Go element type T, for
// example arrow.PrimitiveTypes.Uint8 for uint8, arrow.FixedWidthTypes.Float16
// for float16.Num and arrow.FixedWidthTypes.Boolean for bool.
func ValueTypeOf[T Element]() arrow.DataType {
	var zero T
	switch any(zero).(type) {
	case uint8:
		return arrow.PrimitiveTypes.Uint8
	case int8:
		return arrow.PrimitiveTypes.Int8
	case uint16:
		return arrow.PrimitiveTypes.Uint16
	case int16:
		return arrow.PrimitiveTypes.Int16
	case uint32:
		return arrow.PrimitiveTypes.Uint32
	case int32:
		return arrow.PrimitiveTypes.Int32
	case uint64:
		return arrow.PrimitiveTypes.Uint64
	case int64:
		return arrow.PrimitiveTypes.Int64
	case float16.Num:
		return arrow.FixedWidthTypes.Float16
	case float32:
		return arrow.PrimitiveTypes.Float32
	case float64:
		return arrow.PrimitiveTypes.Float64
	default: // bool
		return arrow.FixedWidthTypes.Boolean
	}
}

// FixedShapeTensorType returns the fixed shape tensor type of r's value type,
// Shape, Permutation and DimNames, for a column whose rows all share r's
// layout; append rows with FixedShapeTensorBuilder.AppendTensor(r.Values).
// It returns NewFixedShapeTensorType's errors (a shape with no elements, for
// example).
func (r RowMajor[T]) FixedShapeTensorType() (*FixedShapeTensorType, error) {
	return NewFixedShapeTensorType(ValueTypeOf[T](), r.Shape, r.Permutation, r.DimNames)
}

// FromStrided converts a strided tensor held in a Go slice, such as the
// buffer of a transposed or column-major (Fortran order) NumPy array, into
// the row-major storage of the spec without changing what it means: the
// returned layout's logical view (numpy.transpose(physical, Permutation),
// spec "Canonical Extension Types › Fixed shape tensor") is the input
// tensor, element for element and with the same dimension names.
//
// The input element at index (i0, ..., in-1) is values[i0*strides[0] + ... +
// in-1*strides[n-1]]; strides are in elements (NumPy's byte strides divided
// by the item size) and must be non-negative. dimNames, in the input's order,
// may be nil.
//
// The physical order is the input's dimensions sorted by decreasing stride
// (ties, dimensions of size 1 and broadcast dimensions of stride 0 keep
// their place after the preceding dimension), so that the physical values
// are read from values in memory order and a tensor that is a transposed
// view of a contiguous buffer is stored exactly as that buffer.
// The physical shape and dim names are the input's in that order, and
// Permutation is its inverse: logical dimension i (input dimension i) is
// physical dimension Permutation[i]. Permutation is nil when the input is
// already row-major ordered. Values is always a new slice.
//
// It returns an error when shape and strides differ in length, dimNames is
// neither nil nor of that length, a dimension or stride is negative, or a
// position falls outside values.
func FromStrided[T Element](values []T, shape, strides []int, dimNames []string) (RowMajor[T], error) {
	nd := len(shape)
	if len(strides) != nd {
		return RowMajor[T]{}, fmt.Errorf("tensorext: %d strides for %d dimensions", len(strides), nd)
	}
	if err := checkDimNames(dimNames, nd); err != nil {
		return RowMajor[T]{}, fmt.Errorf("tensorext: %w", err)
	}
	n, ok := product(shape)
	if !ok {
		return RowMajor[T]{}, fmt.Errorf("tensorext: shape %s is negative or too large", formatInts(shape))
	}
	last := 0
	for k, s := range strides {
		if s < 0 {
			return RowMajor[T]{}, fmt.Errorf("tensorext: stride %d of dimension %d is negative", s, k)
		}
		last += (shape[k] - 1) * s
	}
	if n > 0 && last >= len(values) {
		return RowMajor[T]{}, fmt.Errorf("tensorext: shape %s with strides %s reads position %d of %d values",
			formatInts(shape), formatInts(strides), last, len(values))
	}

	// Worked example, the 3-cycle where Arrow C++ differs. Let B be a
	// C-contiguous array of shape [2,3,4] (element strides [12,4,1]) and
	// X = numpy.transpose(B, (2,0,1)): X has shape [4,2,3] and strides
	// [1,12,4] over B's buffer.
	//   order (input dims by decreasing stride) = [1, 2, 0]
	//   physical shape = shape[order[j]] = [2,3,4], the values are B's
	//   buffer unchanged.
	//   Permutation = inverse(order): order[j] = i => Permutation[i] = j,
	//   so Permutation = [2, 0, 1].
	// Check with the spec: logical = numpy.transpose(physical, [2,0,1])
	// = numpy.transpose(B, (2,0,1)) = X. Logical dimension 0 (X's size-4
	// axis) is physical dimension 2 (B's size-4 axis), and so on.
	// pyarrow's FixedShapeTensorArray.from_numpy_ndarray (Arrow C++) stores
	// the inverse, order itself = [1,2,0], as the permutation. The two agree
	// only for permutations that are their own inverse (the identity and
	// swaps); for this 3-cycle [1,2,0] describes numpy.transpose(B,
	// (1,2,0)), a tensor of shape [3,4,2] that is not X.
	order := physicalOrder(shape, strides)
	r := RowMajor[T]{Shape: make([]int, nd), Values: make([]T, n)}
	physStrides := make([]int, nd)
	perm := make([]int, nd)
	for j, i := range order {
		r.Shape[j] = shape[i]
		physStrides[j] = strides[i]
		perm[i] = j
	}
	if !isIdentity(perm) {
		r.Permutation = perm
	}
	r.DimNames = permuteStrings(dimNames, order)
	if n > 0 {
		gather(r.Values, values, 0, r.Shape, physStrides)
	}
	return r, nil
}

// physicalOrder returns the input dimensions sorted by decreasing stride,
// ties in input order. A dimension of size 1 has no meaningful stride (NumPy
// gives it any) and one of stride 0 (a broadcast) has no place in memory:
// such a dimension sorts with the stride of the nearest preceding other
// dimension, so it stays next to that dimension.
func physicalOrder(shape, strides []int) []int {
	key := make([]int, len(shape))
	prev := math.MaxInt
	for k := range shape {
		if shape[k] != 1 && strides[k] != 0 {
			prev = strides[k]
		}
		key[k] = prev
	}
	order := make([]int, len(shape))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return key[order[a]] > key[order[b]] })
	return order
}

// NewFixedShapeTensorFromStrided returns a one-row FixedShapeTensorArray
// holding the strided tensor (values, shape, strides, dimNames) as
// FromStrided lays it out: its type has FromStrided's physical shape,
// permutation and dim names and the value type of T, and
// arr.Tensor(0).Logical() reads back the input tensor element for element.
// mem nil means memory.DefaultAllocator. It returns FromStrided's and
// NewFixedShapeTensorType's errors. The caller releases the array.
func NewFixedShapeTensorFromStrided[T Element](mem memory.Allocator, values []T, shape, strides []int, dimNames []string) (*FixedShapeTensorArray, error) {
	r, err := FromStrided(values, shape, strides, dimNames)
	if err != nil {
		return nil, err
	}
	typ, err := r.FixedShapeTensorType()
	if err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	b := NewFixedShapeTensorBuilder(mem, typ)
	defer b.Release()
	if err := b.AppendTensor(r.Values); err != nil {
		return nil, err
	}
	return b.NewFixedShapeTensorArray(), nil
}

// ---------------------------------------------------------------------------
// Fixed <-> variable shape

// FixedToVariable converts a fixed shape tensor array into a variable shape
// tensor array of the same rows (spec "Canonical Extension Types › Variable
// shape tensor"): same value type, ndim = len(shape), the same dim_names and
// permutation, and uniform_shape = the fixed shape. Every row's shape is the
// fixed shape, its data the row's values; null rows stay null (the struct
// and its data list are null; the shape is still filled in). The values are
// shared with arr, not copied: the result's data list is a slice of arr's
// value array with new offsets. mem (nil: memory.DefaultAllocator) allocates
// the offsets, shapes and validity bitmap. It works on sliced arrays.
//
// It returns an error for an invalid type (Validate), a 0-D shape (arrow-go
// has no variable shape tensor of ndim 0), more than 2^31-1 values in all
// (List offsets are int32) or a value array too short for the rows.
func FixedToVariable(mem memory.Allocator, arr *FixedShapeTensorArray) (*VariableShapeTensorArray, error) {
	typ := arr.TensorType()
	if err := typ.Validate(); err != nil {
		return nil, err
	}
	ndim := len(typ.shape)
	if ndim == 0 {
		return nil, errors.New("tensorext: cannot convert 0-D tensors: a variable shape tensor needs ndim >= 1")
	}
	vtyp, err := NewVariableShapeTensorType(typ.ValueType(), ndim, typ.permutation, typ.dimNames, typ.shape)
	if err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	n := arr.Len()
	size, _ := product(typ.shape)
	if int64(n)*int64(size) > math.MaxInt32 {
		return nil, fmt.Errorf("tensorext: %d rows of %d values do not fit List's int32 offsets", n, size)
	}
	fsl := arr.Storage().(*array.FixedSizeList)
	off := fsl.Data().Offset()
	child := fsl.Data().Children()[0]
	if (off+n)*size > child.Len() {
		return nil, fmt.Errorf("tensorext: Expected values array of length at least %d, got %d", (off+n)*size, child.Len())
	}
	values := array.NewSliceData(child, int64(off*size), int64((off+n)*size))
	defer values.Release()

	offsets := memory.NewResizableBuffer(mem)
	defer offsets.Release()
	offsets.Resize((n + 1) * arrow.Int32SizeBytes)
	o32 := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	for i := range o32 {
		o32[i] = int32(i * size)
	}

	var validity *memory.Buffer
	nulls := arr.NullN()
	if nulls > 0 {
		validity = newZeroedBuffer(mem, int(bitutil.BytesForBits(int64(n))))
		defer validity.Release()
		bitutil.CopyBitmap(fsl.NullBitmapBytes(), off, n, validity.Bytes(), 0)
	}

	dims := memory.NewResizableBuffer(mem)
	defer dims.Release()
	dims.Resize(n * ndim * arrow.Int32SizeBytes)
	d32 := arrow.Int32Traits.CastFromBytes(dims.Bytes())
	for i := 0; i < n; i++ {
		for k, d := range typ.shape {
			d32[i*ndim+k] = int32(d)
		}
	}

	st := vtyp.Storage.(*arrow.StructType)
	listData := array.NewData(st.Field(0).Type, n, []*memory.Buffer{validity, offsets}, []arrow.ArrayData{values}, nulls, 0)
	defer listData.Release()
	dimData := array.NewData(arrow.PrimitiveTypes.Int32, n*ndim, []*memory.Buffer{nil, dims}, nil, 0, 0)
	defer dimData.Release()
	shapeData := array.NewData(st.Field(1).Type, n, []*memory.Buffer{nil}, []arrow.ArrayData{dimData}, 0, 0)
	defer shapeData.Release()
	structData := array.NewData(st, n, []*memory.Buffer{validity}, []arrow.ArrayData{listData, shapeData}, nulls, 0)
	defer structData.Release()
	storage := array.MakeFromData(structData)
	defer storage.Release()
	return array.NewExtensionArrayWithStorage(vtyp, storage).(*VariableShapeTensorArray), nil
}

// VariableToFixed converts a variable shape tensor array whose non-null rows
// all have one physical shape into a fixed shape tensor array (spec
// "Canonical Extension Types › Fixed shape tensor") with that shape and the
// same value type, dim_names and permutation. A row is null when its struct
// or its data list is null; when the values are copied, its slots in the
// FixedSizeList hold valid zero values (nulls for value types that are not
// fixed-width). When every row is null
// (or there are none) the shape comes from a uniform_shape that fixes every
// dimension. When the rows' values are laid out back to back (as
// FixedToVariable makes them) they are shared, not copied; otherwise they
// are copied. mem nil means memory.DefaultAllocator.
//
// It returns an error for an invalid type, a row the array's Tensor method
// rejects, the first row whose shape differs from the first non-null row's
// ("row 3 has shape [2,2], unlike row 0's shape [2,3]"), a shape that
// disagrees with uniform_shape, a shape that cannot be inferred, or a shape
// NewFixedShapeTensorType rejects (one with no elements, for example).
func VariableToFixed(mem memory.Allocator, arr *VariableShapeTensorArray) (*FixedShapeTensorArray, error) {
	typ := arr.TensorType()
	if err := typ.Validate(); err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	n := arr.Len()
	var shape []int
	first := -1
	starts := make([]int, n)
	for i := 0; i < n; i++ {
		t, err := arr.Tensor(i)
		if errors.Is(err, ErrNullTensor) {
			starts[i] = -1
			continue
		}
		if err != nil {
			return nil, err
		}
		if first < 0 {
			shape, first = t.Shape, i
		} else if !slices.Equal(t.Shape, shape) {
			return nil, fmt.Errorf("tensorext: row %d has shape %s, unlike row %d's shape %s; a fixed shape tensor needs one shape",
				i, formatInts(t.Shape), first, formatInts(shape))
		}
		starts[i] = t.Offset
	}
	if first < 0 {
		for _, d := range typ.uniformShape {
			if d == VaryingDim {
				shape = nil
				break
			}
			shape = append(shape, d)
		}
		if shape == nil {
			return nil, errors.New("tensorext: cannot infer the shape: no row has a value and uniform_shape does not fix every dimension")
		}
	}
	for k, d := range typ.uniformShape {
		if d != VaryingDim && d != shape[k] {
			return nil, fmt.Errorf("tensorext: row %d: shape %s does not match uniform_shape in dimension %d", first, formatInts(shape), k)
		}
	}
	ftyp, err := NewFixedShapeTensorType(typ.ValueType(), shape, typ.permutation, typ.dimNames)
	if err != nil {
		return nil, err
	}
	size, _ := product(shape)
	st := arr.Storage().(*array.Struct)
	data := st.Field(typ.dataIdx).(array.ListLike)
	values := data.ListValues()

	// Rows back to back, null rows included: share the values.
	var valuesData arrow.ArrayData
	if n > 0 {
		s0, _ := data.ValueOffsets(0)
		contiguous := true
		for i := 0; i < n && contiguous; i++ {
			s, e := data.ValueOffsets(i)
			contiguous = s == s0+int64(i*size) && e == s+int64(size)
		}
		if contiguous {
			valuesData = array.NewSliceData(values.Data(), s0, s0+int64(n*size))
		}
	}
	if valuesData == nil {
		flat, err := copyFlat(mem, values, n*size, func(fn func(block)) {
			for _, s := range starts {
				fn(block{pos: s, n1: 1, n0: size, s0: 1})
			}
		})
		if err != nil {
			return nil, err
		}
		valuesData = flat.Data()
		valuesData.Retain()
		flat.Release()
	}
	defer valuesData.Release()

	var validity *memory.Buffer
	nulls := 0
	for _, s := range starts {
		if s < 0 {
			nulls++
		}
	}
	if nulls > 0 {
		validity = newZeroedBuffer(mem, int(bitutil.BytesForBits(int64(n))))
		defer validity.Release()
		for i, s := range starts {
			if s >= 0 {
				bitutil.SetBit(validity.Bytes(), i)
			}
		}
	}
	fslData := array.NewData(ftyp.Storage, n, []*memory.Buffer{validity}, []arrow.ArrayData{valuesData}, nulls, 0)
	defer fslData.Release()
	storage := array.MakeFromData(fslData)
	defer storage.Release()
	return array.NewExtensionArrayWithStorage(ftyp, storage).(*FixedShapeTensorArray), nil
}
