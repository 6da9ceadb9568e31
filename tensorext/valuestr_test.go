package tensorext

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// halfBits are float16 values whose text arrow-go v18.8.0 gets wrong in
// lists (the subnormals) or cannot write in structs and unions (NaN, the
// infinities), and their neighbours: ±2^-24 (the smallest subnormal), the
// largest subnormal, the smallest normal, ±0, ±Inf, NaN, ±65504 (the
// largest finite), 0.7 and 1/3 rounded to float16, 1. Position 6 is null.
var halfBits = []uint16{0x0001, 0x8001, 0x03ff, 0x0400, 0x0000, 0x8000, 0, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0xfbff, 0x399a, 0x3555, 0x3c00, 0x3c00}

const halfNull = 6

// halfValue decodes IEEE 754 binary16 bits from the standard's formula
// (IEEE 754-2019 §3.4), not through the package's conversion.
func halfValue(b uint16) float64 {
	sign := 1.0
	if b&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(b>>10&0x1f), float64(b&0x3ff)
	switch exp {
	case 0:
		return sign * frac * math.Ldexp(1, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * (1 + frac/1024) * math.Ldexp(1, exp-15)
}

// halfLeaves returns the float16 array of halfBits and its float32 twin,
// which holds the same values (float32 holds every float16 exactly) and
// whose texts arrow-go writes right.
func halfLeaves(t *testing.T) (f16, f32 arrow.Array) {
	t.Helper()
	hb := array.NewFloat16Builder(memory.DefaultAllocator)
	fb := array.NewFloat32Builder(memory.DefaultAllocator)
	defer hb.Release()
	defer fb.Release()
	for k, b := range halfBits {
		if k == halfNull {
			hb.AppendNull()
			fb.AppendNull()
			continue
		}
		hb.Append(float16.FromBits(b))
		fb.Append(float32(halfValue(b)))
	}
	f16, f32 = hb.NewArray(), fb.NewArray()
	t.Cleanup(func() { f16.Release(); f32.Release() })
	return f16, f32
}

func buf32(v ...int32) *memory.Buffer { return memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(v)) }
func buf64(v ...int64) *memory.Buffer { return memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(v)) }

// validity is a bitmap with the rows in null cleared, and their count.
func validity(n int, null ...int) (*memory.Buffer, int) {
	b := make([]byte, (n+7)/8)
	for i := range n {
		b[i/8] |= 1 << (i % 8)
	}
	for _, i := range null {
		b[i/8] &^= 1 << (i % 8)
	}
	return memory.NewBufferBytes(b), len(null)
}

// nestings builds, around a leaf array of len(halfBits) values, every
// nested layout whose text holds its values: each returns an array whose
// rows together show every leaf value, some rows null or empty.
var nestings = []struct {
	name  string
	build func(leaf arrow.Array) arrow.Array
}{
	{"List", func(leaf arrow.Array) arrow.Array {
		v, nulls := validity(5, 3)
		return array.NewListData(array.NewData(arrow.ListOf(leaf.DataType()), 5, []*memory.Buffer{v, buf32(0, 6, 6, 12, 12, 16)}, []arrow.ArrayData{leaf.Data()}, nulls, 0))
	}},
	{"LargeList", func(leaf arrow.Array) arrow.Array {
		return array.NewLargeListData(array.NewData(arrow.LargeListOf(leaf.DataType()), 2, []*memory.Buffer{nil, buf64(0, 9, 16)}, []arrow.ArrayData{leaf.Data()}, 0, 0))
	}},
	{"FixedSizeList", func(leaf arrow.Array) arrow.Array {
		v, nulls := validity(4, 2)
		return array.NewFixedSizeListData(array.NewData(arrow.FixedSizeListOf(4, leaf.DataType()), 4, []*memory.Buffer{v}, []arrow.ArrayData{leaf.Data()}, nulls, 0))
	}},
	{"ListView", func(leaf arrow.Array) arrow.Array { // out of order, overlapping
		return array.NewListViewData(array.NewData(arrow.ListViewOf(leaf.DataType()), 3, []*memory.Buffer{nil, buf32(8, 0, 3), buf32(8, 10, 0)}, []arrow.ArrayData{leaf.Data()}, 0, 0))
	}},
	{"LargeListView", func(leaf arrow.Array) arrow.Array {
		return array.NewLargeListViewData(array.NewData(arrow.LargeListViewOf(leaf.DataType()), 2, []*memory.Buffer{nil, buf64(0, 8), buf64(8, 8)}, []arrow.ArrayData{leaf.Data()}, 0, 0))
	}},
	{"List<List>", func(leaf arrow.Array) arrow.Array {
		inner := array.NewData(arrow.ListOf(leaf.DataType()), 5, []*memory.Buffer{nil, buf32(0, 3, 3, 9, 10, 16)}, []arrow.ArrayData{leaf.Data()}, 0, 0)
		defer inner.Release()
		return array.NewListData(array.NewData(arrow.ListOf(arrow.ListOf(leaf.DataType())), 2, []*memory.Buffer{nil, buf32(0, 2, 5)}, []arrow.ArrayData{inner}, 0, 0))
	}},
	{"List<Struct>", func(leaf arrow.Array) arrow.Array {
		names := array.NewStringBuilder(memory.DefaultAllocator)
		defer names.Release()
		for k := range leaf.Len() {
			names.Append(string(rune('a' + k)))
		}
		s := names.NewArray()
		defer s.Release()
		st, _ := array.NewStructArray([]arrow.Array{leaf, s}, []string{"x", "name"})
		defer st.Release()
		return array.NewListData(array.NewData(arrow.ListOf(st.DataType()), 3, []*memory.Buffer{nil, buf32(0, 5, 11, 16)}, []arrow.ArrayData{st.Data()}, 0, 0))
	}},
	{"Map", func(leaf arrow.Array) arrow.Array {
		keys := array.NewStringBuilder(memory.DefaultAllocator)
		defer keys.Release()
		for k := range leaf.Len() {
			keys.Append(string(rune('k' + k%3)))
		}
		ka := keys.NewArray()
		defer ka.Release()
		mt := arrow.MapOf(arrow.BinaryTypes.String, leaf.DataType())
		st := array.NewData(mt.Elem(), leaf.Len(), []*memory.Buffer{nil}, []arrow.ArrayData{ka.Data(), leaf.Data()}, 0, 0)
		defer st.Release()
		return array.NewMapData(array.NewData(mt, 3, []*memory.Buffer{nil, buf32(0, 3, 10, 16)}, []arrow.ArrayData{st}, 0, 0))
	}},
	{"Struct<List>", func(leaf arrow.Array) arrow.Array {
		l := array.NewListData(array.NewData(arrow.ListOf(leaf.DataType()), 2, []*memory.Buffer{nil, buf32(0, 7, 16)}, []arrow.ArrayData{leaf.Data()}, 0, 0))
		defer l.Release()
		st, _ := array.NewStructArray([]arrow.Array{l}, []string{"v"})
		return st
	}},
	{"Dictionary", func(leaf arrow.Array) arrow.Array {
		ib := array.NewInt8Builder(memory.DefaultAllocator)
		defer ib.Release()
		for k := leaf.Len() - 1; k >= 0; k-- {
			ib.Append(int8(k))
		}
		ib.AppendNull()
		idx := ib.NewArray()
		defer idx.Release()
		return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: leaf.DataType()}, idx, leaf)
	}},
	{"RunEndEncoded", func(leaf arrow.Array) arrow.Array {
		ends := make([]int32, leaf.Len())
		for k := range ends {
			ends[k] = int32(2*k + 2)
		}
		re := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(ends), []*memory.Buffer{nil, buf32(ends...)}, nil, 0, 0))
		defer re.Release()
		return array.NewRunEndEncodedArray(re, leaf, 2*leaf.Len(), 0)
	}},
	{"SparseUnion", func(leaf arrow.Array) arrow.Array {
		ib := array.NewInt32Builder(memory.DefaultAllocator)
		defer ib.Release()
		codes := make([]int8, leaf.Len())
		for k := range codes {
			ib.Append(int32(k))
			codes[k] = int8(k % 2 * 5)
		}
		ints := ib.NewArray()
		defer ints.Release()
		tc := array.NewInt8Data(array.NewData(arrow.PrimitiveTypes.Int8, len(codes), []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int8Traits.CastToBytes(codes))}, nil, 0, 0))
		defer tc.Release()
		u, err := array.NewSparseUnionFromArraysWithFieldCodes(tc, []arrow.Array{leaf, ints}, []string{"h", "i"}, []arrow.UnionTypeCode{0, 5})
		if err != nil {
			panic(err)
		}
		return u
	}},
	{"DenseUnion", func(leaf arrow.Array) arrow.Array {
		n := leaf.Len()
		codes, offs := make([]int8, n+1), make([]int32, n+1)
		for k := range n {
			offs[k] = int32(n - 1 - k)
		}
		codes[n] = 1 // the int child's only value
		tc := array.NewInt8Data(array.NewData(arrow.PrimitiveTypes.Int8, n+1, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int8Traits.CastToBytes(codes))}, nil, 0, 0))
		defer tc.Release()
		oa := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, n+1, []*memory.Buffer{nil, buf32(offs...)}, nil, 0, 0))
		defer oa.Release()
		ints := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, 1, []*memory.Buffer{nil, buf32(7)}, nil, 0, 0))
		defer ints.Release()
		u, err := array.NewDenseUnionFromArraysWithFields(tc, oa, []arrow.Array{leaf, ints}, []string{"h", "i"})
		if err != nil {
			panic(err)
		}
		return u
	}},
}

// TestValueStrFloat16Nested: in every nested layout, the text of float16
// values is the text arrow-go writes for the same layout around float32
// twins of the values (float32 holds each exactly, and arrow-go writes
// float32 right): subnormals, ±0, ±Inf, NaN, ±65504, rounded values and
// nulls, in lists, list views, maps, structs, dictionaries, run-end encoded
// arrays and unions.
func TestValueStrFloat16Nested(t *testing.T) {
	f16, f32 := halfLeaves(t)
	for _, n := range nestings {
		t.Run(n.name, func(t *testing.T) {
			a, b := n.build(f16), n.build(f32)
			defer a.Release()
			defer b.Release()
			if a.Len() != b.Len() || a.Len() == 0 {
				t.Fatalf("lengths %d and %d", a.Len(), b.Len())
			}
			for i := range a.Len() {
				got, want := ValueStr(a, i), b.ValueStr(i)
				if got != want {
					t.Errorf("row %d: %s\nwant (float32 twin) %s", i, got, want)
				}
			}
		})
	}
}

// TestValueStrFloat16Literal: the texts of a List<float16> and of float16
// values alone, written out by hand from the values' bits (JSON numbers in
// lists, as encoding/json writes a float32, or goccy/go-json without the
// build tag arrow_json_stdlib; the shortest float32 text alone).
func TestValueStrFloat16Literal(t *testing.T) {
	f16, _ := halfLeaves(t)
	l := nestings[0].build(f16)
	defer l.Release()
	want := []string{
		`[5.9604645e-8,-5.9604645e-8,0.00006097555,0.000061035156,0,-0]`,
		`[]`,
		`[null,"+Inf","-Inf","NaN",65504,-65504]`,
		array.NullValueStr,
		`[0.7001953,0.33325195,1,1]`,
	}
	if b, _ := marshalJSON(float32(1e-8)); string(b) == "1e-08" { // goccy/go-json (json_goccy.go)
		want[0] = strings.ReplaceAll(want[0], "e-8", "e-08")
	}
	for i, w := range want {
		if got := ValueStr(l, i); got != w {
			t.Errorf("row %d: %s, want %s", i, got, w)
		}
	}
	alone := []string{"5.9604645e-08", "-5.9604645e-08", "6.097555e-05", "6.1035156e-05", "0", "-0", array.NullValueStr,
		"+Inf", "-Inf", "NaN", "65504", "-65504", "0.7001953", "0.33325195", "1", "1"}
	for i, w := range alone {
		if got := ValueStr(f16, i); got != w {
			t.Errorf("value %d: %s, want %s", i, got, w)
		}
	}
}

// Types without float16 keep arrow-go's own text; HasFloat16 finds float16
// at any depth.
func TestHasFloat16(t *testing.T) {
	h := arrow.FixedWidthTypes.Float16
	yes := []arrow.DataType{h, arrow.ListOf(h), arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOf(h)),
		arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int8}, arrow.Field{Name: "b", Type: arrow.LargeListViewOf(h)}),
		&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: h},
		arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, h), arrow.SparseUnionOf([]arrow.Field{{Name: "h", Type: h}}, []arrow.UnionTypeCode{0})}
	for _, dt := range yes {
		if !HasFloat16(dt) {
			t.Errorf("HasFloat16(%s) = false", dt)
		}
	}
	typ, _ := NewFixedShapeTensorType(h, []int{2}, nil, nil)
	if !HasFloat16(typ) {
		t.Errorf("HasFloat16(%s) = false", typ)
	}
	no := []arrow.DataType{arrow.PrimitiveTypes.Float32, arrow.ListOf(arrow.PrimitiveTypes.Float64), arrow.BinaryTypes.String, arrow.Null}
	for _, dt := range no {
		if HasFloat16(dt) {
			t.Errorf("HasFloat16(%s) = true", dt)
		}
	}
	_, f32 := halfLeaves(t)
	l := nestings[0].build(f32)
	defer l.Release()
	for i := range l.Len() {
		if got, want := ValueStr(l, i), l.ValueStr(i); got != want {
			t.Errorf("float32 row %d: %s, want arrow-go's %s", i, got, want)
		}
	}
}
