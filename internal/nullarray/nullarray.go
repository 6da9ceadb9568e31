// Package nullarray makes arrays whose every value is null, of any Arrow
// type, from zeroed buffers.
//
// It does what arrow-go's array.MakeArrayOfNull does without linking
// arrow-go's builders into the wasm: MakeArrayOfNull builds run-end encoded
// arrays with array.NewBuilder, which keeps every builder of every type (and
// their JSON decoders) alive, 2.1 MB of the page's wasm (make size). The
// tests compare every layout with array.MakeArrayOfNull.
package nullarray

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Make returns an array of n nulls of type dt.
func Make(dt arrow.DataType, n int) arrow.Array {
	if dt.ID() == arrow.NULL {
		return array.NewNull(n)
	}
	d := data(dt, n)
	defer d.Release()
	return array.MakeFromData(d)
}

// zeros is a buffer of size zero bytes.
func zeros(size int) *memory.Buffer { return memory.NewBufferBytes(make([]byte, size)) }

// data is the array data of n nulls of type dt. Layouts whose offsets must
// count (none here: every list is empty) and unions (no validity bitmap:
// their first child's nulls) follow the columnar format.
func data(dt arrow.DataType, n int) arrow.ArrayData {
	validity := zeros(int(bitutil.BytesForBits(int64(n))))
	switch t := dt.(type) {
	case *arrow.NullType:
		return array.NewData(dt, n, []*memory.Buffer{nil}, nil, n, 0)
	case arrow.ExtensionType:
		st := data(t.StorageType(), n)
		defer st.Release()
		if _, ok := t.StorageType().(*arrow.DictionaryType); ok {
			return array.NewDataWithDictionary(dt, n, st.Buffers(), st.NullN(), 0, st.Dictionary().(*array.Data))
		}
		return array.NewData(dt, n, st.Buffers(), st.Children(), st.NullN(), 0)
	case *arrow.DictionaryType:
		dict := data(t.ValueType, 0)
		defer dict.Release()
		idx := t.IndexType.(arrow.FixedWidthDataType).Bytes()
		return array.NewDataWithDictionary(dt, n, []*memory.Buffer{validity, zeros(n * idx)}, n, 0, dict.(*array.Data))
	case *arrow.BinaryType, *arrow.StringType:
		return array.NewData(dt, n, []*memory.Buffer{validity, zeros(4 * (n + 1)), zeros(0)}, nil, n, 0)
	case *arrow.LargeBinaryType, *arrow.LargeStringType:
		return array.NewData(dt, n, []*memory.Buffer{validity, zeros(8 * (n + 1)), zeros(0)}, nil, n, 0)
	case *arrow.BinaryViewType, *arrow.StringViewType:
		return array.NewData(dt, n, []*memory.Buffer{validity, zeros(arrow.ViewHeaderSizeBytes * n)}, nil, n, 0)
	case *arrow.ListType, *arrow.MapType:
		return nested(dt, n, []*memory.Buffer{validity, zeros(4 * (n + 1))}, t.(arrow.ListLikeType).Elem(), 0)
	case *arrow.LargeListType:
		return nested(dt, n, []*memory.Buffer{validity, zeros(8 * (n + 1))}, t.Elem(), 0)
	case *arrow.ListViewType:
		return nested(dt, n, []*memory.Buffer{validity, zeros(4 * n), zeros(4 * n)}, t.Elem(), 0)
	case *arrow.LargeListViewType:
		return nested(dt, n, []*memory.Buffer{validity, zeros(8 * n), zeros(8 * n)}, t.Elem(), 0)
	case *arrow.FixedSizeListType:
		return nested(dt, n, []*memory.Buffer{validity}, t.Elem(), n*int(t.Len()))
	case *arrow.StructType:
		children := make([]arrow.ArrayData, t.NumFields())
		for i, f := range t.Fields() {
			children[i] = data(f.Type, n)
		}
		return withChildren(dt, n, []*memory.Buffer{validity}, children, n)
	case arrow.UnionType:
		// Every type id is the first child's (0 is not necessarily its
		// code); the first child holds the nulls.
		codes := t.TypeCodes()
		ids := make([]byte, n)
		if len(codes) > 0 {
			for i := range ids {
				ids[i] = byte(codes[0])
			}
		}
		children := make([]arrow.ArrayData, len(t.Fields()))
		bufs := []*memory.Buffer{nil, memory.NewBufferBytes(ids)}
		for i, f := range t.Fields() {
			m := n
			if t.Mode() == arrow.DenseMode {
				m = 0
				if i == 0 {
					m = min(n, 1)
				}
			}
			children[i] = data(f.Type, m)
		}
		if t.Mode() == arrow.DenseMode {
			bufs = append(bufs, zeros(4*n))
		}
		return withChildren(dt, n, bufs, children, 0)
	case *arrow.RunEndEncodedType:
		// One run of n nulls (none when n is 0).
		runs := min(n, 1)
		ends := data(t.RunEnds(), runs)
		defer ends.Release()
		endBuf := zeros(runs * t.RunEnds().(arrow.FixedWidthDataType).Bytes())
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
		runEnds := array.NewData(t.RunEnds(), runs, []*memory.Buffer{nil, endBuf}, nil, 0, 0)
		children := []arrow.ArrayData{runEnds, data(t.Encoded(), runs)}
		return withChildren(dt, n, []*memory.Buffer{nil}, children, 0)
	case arrow.FixedWidthDataType:
		size := int(bitutil.BytesForBits(int64(n) * int64(t.BitWidth())))
		return array.NewData(dt, n, []*memory.Buffer{validity, zeros(size)}, nil, n, 0)
	}
	// Unknown layouts: no values at all.
	return array.NewData(dt, n, []*memory.Buffer{validity}, nil, n, 0)
}

// nested is the data of a list-like type with one child of m nulls.
func nested(dt arrow.DataType, n int, bufs []*memory.Buffer, elem arrow.DataType, m int) arrow.ArrayData {
	return withChildren(dt, n, bufs, []arrow.ArrayData{data(elem, m)}, n)
}

// withChildren makes the data and releases the children (NewData retains).
func withChildren(dt arrow.DataType, n int, bufs []*memory.Buffer, children []arrow.ArrayData, nulls int) arrow.ArrayData {
	d := array.NewData(dt, n, bufs, children, nulls, 0)
	for _, c := range children {
		c.Release()
	}
	return d
}
