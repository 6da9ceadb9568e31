package nullarray

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Make returns an array of n nulls of type dt, its buffers allocated from
// mem (so that a budget allocator counts them and can refuse them: it panics
// as arrow-go's allocators do when memory is refused).
func Make(mem memory.Allocator, dt arrow.DataType, n int) arrow.Array {
	if dt.ID() == arrow.NULL {
		return array.NewNull(n)
	}
	d := data(mem, dt, n)
	defer d.Release()
	return array.MakeFromData(d)
}

// zeros is a buffer of size zero bytes from mem.
func zeros(mem memory.Allocator, size int) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(size)
	clear(b.Bytes())
	return b
}

// newData is array.NewData that hands its buffers over: NewData retains
// them, so the references made here are released.
func newData(dt arrow.DataType, n int, bufs []*memory.Buffer, children []arrow.ArrayData, nulls int) arrow.ArrayData {
	d := array.NewData(dt, n, bufs, children, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	return d
}

// data is the array data of n nulls of type dt. Layouts whose offsets must
// count (none here: every list is empty) and unions (no validity bitmap:
// their first child's nulls) follow the columnar format.
func data(mem memory.Allocator, dt arrow.DataType, n int) arrow.ArrayData {
	validity := func() *memory.Buffer { return zeros(mem, int(bitutil.BytesForBits(int64(n)))) }
	switch t := dt.(type) {
	case *arrow.NullType:
		return newData(dt, n, []*memory.Buffer{nil}, nil, n)
	case arrow.ExtensionType:
		st := data(mem, t.StorageType(), n)
		defer st.Release()
		if _, ok := t.StorageType().(*arrow.DictionaryType); ok {
			return array.NewDataWithDictionary(dt, n, st.Buffers(), st.NullN(), 0, st.Dictionary().(*array.Data))
		}
		return array.NewData(dt, n, st.Buffers(), st.Children(), st.NullN(), 0)
	case *arrow.DictionaryType:
		dict := data(mem, t.ValueType, 0)
		defer dict.Release()
		idx := t.IndexType.(arrow.FixedWidthDataType).Bytes()
		bufs := []*memory.Buffer{validity(), zeros(mem, n*idx)}
		d := array.NewDataWithDictionary(dt, n, bufs, n, 0, dict.(*array.Data))
		for _, b := range bufs {
			b.Release()
		}
		return d
	case *arrow.BinaryType, *arrow.StringType:
		return newData(dt, n, []*memory.Buffer{validity(), zeros(mem, 4*(n+1)), zeros(mem, 0)}, nil, n)
	case *arrow.LargeBinaryType, *arrow.LargeStringType:
		return newData(dt, n, []*memory.Buffer{validity(), zeros(mem, 8*(n+1)), zeros(mem, 0)}, nil, n)
	case *arrow.BinaryViewType, *arrow.StringViewType:
		return newData(dt, n, []*memory.Buffer{validity(), zeros(mem, arrow.ViewHeaderSizeBytes*n)}, nil, n)
	case *arrow.ListType, *arrow.MapType:
		return nested(mem, dt, n, []*memory.Buffer{validity(), zeros(mem, 4*(n+1))}, t.(arrow.ListLikeType).Elem(), 0)
	case *arrow.LargeListType:
		return nested(mem, dt, n, []*memory.Buffer{validity(), zeros(mem, 8*(n+1))}, t.Elem(), 0)
	case *arrow.ListViewType:
		return nested(mem, dt, n, []*memory.Buffer{validity(), zeros(mem, 4*n), zeros(mem, 4*n)}, t.Elem(), 0)
	case *arrow.LargeListViewType:
		return nested(mem, dt, n, []*memory.Buffer{validity(), zeros(mem, 8*n), zeros(mem, 8*n)}, t.Elem(), 0)
	case *arrow.FixedSizeListType:
		return nested(mem, dt, n, []*memory.Buffer{validity()}, t.Elem(), n*int(t.Len()))
	case *arrow.StructType:
		children := make([]arrow.ArrayData, t.NumFields())
		for i, f := range t.Fields() {
			children[i] = data(mem, f.Type, n)
		}
		return withChildren(dt, n, []*memory.Buffer{validity()}, children, n)
	case arrow.UnionType:
		// Every type id is the first child's (0 is not necessarily its
		// code); the first child holds the nulls.
		codes := t.TypeCodes()
		idBuf := zeros(mem, n)
		ids := idBuf.Bytes()
		if len(codes) > 0 {
			for i := range ids {
				ids[i] = byte(codes[0])
			}
		}
		children := make([]arrow.ArrayData, len(t.Fields()))
		bufs := []*memory.Buffer{nil, idBuf}
		for i, f := range t.Fields() {
			m := n
			if t.Mode() == arrow.DenseMode {
				m = 0
				if i == 0 {
					m = min(n, 1)
				}
			}
			children[i] = data(mem, f.Type, m)
		}
		if t.Mode() == arrow.DenseMode {
			bufs = append(bufs, zeros(mem, 4*n))
		}
		return withChildren(dt, n, bufs, children, 0)
	case *arrow.RunEndEncodedType:
		// One run of n nulls (none when n is 0).
		runs := min(n, 1)
		ends := data(mem, t.RunEnds(), runs)
		defer ends.Release()
		endBuf := zeros(mem, runs*t.RunEnds().(arrow.FixedWidthDataType).Bytes())
		if runs == 1 {
			b := endBuf.Bytes()
			switch len(b) {
			case 2:
				arrow.Int16Traits.CastFromBytes(b)[0] = int16(n)
			case 4:
				arrow.Int32Traits.CastFromBytes(b)[0] = int32(n)
			default:
				arrow.Int64Traits.CastFromBytes(b)[0] = int64(n)
			}
		}
		runEnds := newData(t.RunEnds(), runs, []*memory.Buffer{nil, endBuf}, nil, 0)
		children := []arrow.ArrayData{runEnds, data(mem, t.Encoded(), runs)}
		return withChildren(dt, n, []*memory.Buffer{nil}, children, 0)
	case arrow.FixedWidthDataType:
		size := int(bitutil.BytesForBits(int64(n) * int64(t.BitWidth())))
		return newData(dt, n, []*memory.Buffer{validity(), zeros(mem, size)}, nil, n)
	}
	// Unknown layouts: no values at all.
	return newData(dt, n, []*memory.Buffer{validity()}, nil, n)
}

// nested is the data of a list-like type with one child of m nulls.
func nested(mem memory.Allocator, dt arrow.DataType, n int, bufs []*memory.Buffer, elem arrow.DataType, m int) arrow.ArrayData {
	return withChildren(dt, n, bufs, []arrow.ArrayData{data(mem, elem, m)}, n)
}

// withChildren makes the data and releases the buffers and children given
// (NewData retains them).
func withChildren(dt arrow.DataType, n int, bufs []*memory.Buffer, children []arrow.ArrayData, nulls int) arrow.ArrayData {
	d := newData(dt, n, bufs, children, nulls)
	for _, c := range children {
		c.Release()
	}
	return d
}
