package dialect

import (
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// TestLanceBFloat16File reads testdata/lance_bfloat16.arrow (an
// arrow.fixed_shape_tensor whose value field is lance.bfloat16, written by
// gen_daft_lance.mjs) with arrow-go's IPC reader: arrow-go applies the
// registered lance.bfloat16 type to the FixedSizeList's child field, so the
// tensors' Values are *BFloat16Array, and every element's bits and value
// equal the generator's.
func TestLanceBFloat16File(t *testing.T) {
	schema, recs := dlReadFile(t, filepath.Join("..", "..", "testdata", "lance_bfloat16.arrow"))
	want := dlExpected(t)["lance_bfloat16.arrow"]
	rec := recs[0]
	for i, f := range schema.Fields() {
		exp := want[f.Name]
		t.Run(f.Name, func(t *testing.T) {
			ft, ok := f.Type.(*tensorext.FixedShapeTensorType)
			if !ok {
				t.Fatalf("type %s (%T), want a registered fixed_shape_tensor", f.Type, f.Type)
			}
			if err := ft.Validate(); err != nil {
				t.Fatal(err)
			}
			bt, ok := ft.ValueType().(*BFloat16Type)
			if !ok || bt.Validate() != nil {
				t.Fatalf("value type %s (%T), want lance.bfloat16", ft.ValueType(), ft.ValueType())
			}
			if !slices.Equal(ft.Shape(), exp.Shape) {
				t.Errorf("shape %v, want %v", ft.Shape(), exp.Shape)
			}
			if got := tensorext.StandardType(ft.ValueType()); got.ID() != arrow.FLOAT32 {
				t.Errorf("StandardType = %s, want float32", got)
			}
			arr := rec.Column(i).(*tensorext.FixedShapeTensorArray)
			for r, er := range exp.Rows {
				tn, err := arr.Tensor(r)
				if er == nil {
					if !IsNull(err) {
						t.Errorf("row %d: %v, want null", r, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("row %d: %v", r, err)
				}
				ba, ok := tn.Values.(*BFloat16Array)
				if !ok {
					t.Fatalf("row %d: values %T", r, tn.Values)
				}
				dlCheckRow(t, r, tn, er, nil)
				k := 0
				tn.Positions(func(pos int) bool {
					bits, ok := ba.Bits(pos)
					if !ok || bits != er.Bits[k] {
						t.Errorf("row %d element %d: bits %#04x, want %#04x", r, k, bits, er.Bits[k])
					}
					f32 := float64(ba.Value(pos))
					if want := dlNumber(t, er.Values[k]); !dlSame(f32, want) {
						t.Errorf("row %d element %d: Value %v, want %v", r, k, f32, want)
					}
					// The text is the shortest that reads back as the same float32.
					s := tn.ValueStr(pos)
					if back, err := strconv.ParseFloat(s, 32); err != nil || !dlSame(back, f32) {
						t.Errorf("row %d element %d: ValueStr %q does not read back as %v", r, k, s, f32)
					}
					k++
					return true
				})
			}
		})
	}
}

// TestBFloat16Values checks the conversion and text of every kind of
// bfloat16 value, against float32 values computed independently (the bits
// are the float32's upper half: IEEE 754 binary32 with 16 fraction bits
// dropped).
func TestBFloat16Values(t *testing.T) {
	cases := []struct {
		bits uint16
		want float64
		text string
	}{
		{0x3f80, 1, "1"},
		{0xc020, -2.5, "-2.5"},
		{0x3f8d, 1.1015625, "1.1015625"},
		{0x0000, 0, "0"},
		{0x8000, math.Copysign(0, -1), "-0"},
		{0x0001, math.Ldexp(1, -133), "9.1835e-41"},      // smallest subnormal
		{0x007f, math.Ldexp(127, -133), "1.1663108e-38"}, // largest subnormal
		{0x0080, math.Ldexp(1, -126), "1.1754944e-38"},   // smallest normal
		{0x7f7f, math.Ldexp(255, 120), "3.3895314e+38"},  // largest finite
		{0x7f80, math.Inf(1), "+Inf"},                    // arrow-go's text for +Inf
		{0xff80, math.Inf(-1), "-Inf"},
		{0x7fc0, math.NaN(), "NaN"},
	}
	b := array.NewFixedSizeBinaryBuilder(memory.DefaultAllocator, &arrow.FixedSizeBinaryType{ByteWidth: 2})
	defer b.Release()
	for _, c := range cases {
		b.Append([]byte{byte(c.bits), byte(c.bits >> 8)})
	}
	b.AppendNull()
	st := b.NewArray()
	defer st.Release()
	arr := array.NewExtensionArrayWithStorage(NewBFloat16Type(), st).(*BFloat16Array)
	defer arr.Release()
	at, ok := tensorext.Float64Reader(arr)
	if !ok || !tensorext.IsNumeric(arr) {
		t.Fatal("Float64Reader does not read bfloat16")
	}
	for i, c := range cases {
		if got := at(i); !dlSame(got, c.want) {
			t.Errorf("%#04x: %v, want %v", c.bits, got, c.want)
		}
		if got := arr.ValueStr(i); got != c.text {
			t.Errorf("%#04x: ValueStr %q, want %q", c.bits, got, c.text)
		}
	}
	if got := arr.ValueStr(len(cases)); got != array.NullValueStr {
		t.Errorf("null: %q", got)
	}
	// A slice reads from its own offset.
	sl := array.NewSlice(arr, 2, 4).(*BFloat16Array)
	defer sl.Release()
	if v := sl.Value(0); v != 1.1015625 {
		t.Errorf("slice element 0 = %v", v)
	}
}

// TestBFloat16Lenient checks that Deserialize never fails (arrow-go would
// refuse the whole schema): other storage is kept, reported by Validate,
// and read as no numbers.
func TestBFloat16Lenient(t *testing.T) {
	dt, err := NewBFloat16Type().Deserialize(arrow.PrimitiveTypes.Uint16, "whatever")
	if err != nil {
		t.Fatal(err)
	}
	bt := dt.(*BFloat16Type)
	if bt.Validate() == nil || bt.Float() != nil {
		t.Errorf("Validate %v, Float %v", bt.Validate(), bt.Float())
	}
	if got := tensorext.StandardType(bt); got != arrow.DataType(bt) {
		t.Errorf("StandardType of a broken type = %s", got)
	}
	ub := array.NewUint16Builder(memory.DefaultAllocator)
	ub.AppendValues([]uint16{0x3f80}, nil)
	st := ub.NewArray()
	defer st.Release()
	arr := array.NewExtensionArrayWithStorage(bt, st).(*BFloat16Array)
	defer arr.Release()
	if tensorext.IsNumeric(arr) {
		t.Error("IsNumeric over uint16 storage")
	}
	if _, ok := arr.Bits(0); ok {
		t.Error("Bits over uint16 storage")
	}
	if got := arr.ValueStr(0); got != "16256" {
		t.Errorf("ValueStr = %q, want the storage's", got)
	}
	good, _ := NewBFloat16Type().Deserialize(&arrow.FixedSizeBinaryType{ByteWidth: 2}, "")
	if !good.ExtensionEquals(NewBFloat16Type()) || good.ExtensionEquals(bt) {
		t.Error("ExtensionEquals")
	}
}

// TestBFloat16Vectors: Lance stores vectors as a plain FixedSizeList of
// lance.bfloat16; the nested FixedSizeList dialect reads them as 1-D
// tensors whose elements are the bfloat16 values.
func TestBFloat16Vectors(t *testing.T) {
	mem := memory.DefaultAllocator
	sb := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 2})
	// 1.0 (0x3f80), -2.0 (0xc000), 0.5 (0x3f00); 3.0 (0x4040), 0, -0.25 (0xbe80)
	for _, bits := range []uint16{0x3f80, 0xc000, 0x3f00, 0x4040, 0x0000, 0xbe80} {
		sb.Append([]byte{byte(bits), byte(bits >> 8)})
	}
	storage := sb.NewArray()
	defer storage.Release()
	values := array.NewExtensionArrayWithStorage(NewBFloat16Type(), storage)
	defer values.Release()
	listType := arrow.FixedSizeListOf(3, NewBFloat16Type())
	data := array.NewData(listType, 2, []*memory.Buffer{nil}, []arrow.ArrayData{values.Data()}, 0, 0)
	defer data.Release()
	arr := array.NewFixedSizeListData(data)
	defer arr.Release()

	col, err := Detect(NewInput(arrow.Field{Name: "vec", Type: listType}, arrow.Metadata{}))
	if err != nil || col == nil {
		t.Fatalf("Detect: %v, %v", col, err)
	}
	if col.NDim != 1 || len(col.Shape) != 1 || col.Shape[0] != 3 {
		t.Fatalf("shape %v ndim %d, want [3]", col.Shape, col.NDim)
	}
	for row, want := range [][]float64{{1, -2, 0.5}, {3, 0, -0.25}} {
		tn, err := col.Tensor(arr, row)
		if err != nil {
			t.Fatal(err)
		}
		for k, w := range want {
			pos, _ := tn.Pos(k)
			if got, ok := tn.Float64(pos); !ok || got != w {
				t.Errorf("row %d element %d = %v (%v), want %v", row, k, got, ok, w)
			}
		}
	}
}
