package dialect

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// fuzzStorages are fixed storage arrays FuzzDetect puts under fuzzed
// extension names and metadata: the layouts of every dialect here, with
// null rows, empty rows and ragged rows.
func fuzzStorages(t testing.TB) []arrow.Array {
	mem := memory.DefaultAllocator
	var out []arrow.Array

	// List<float32> and LargeList<int64>: rows of 0..5 elements, one null.
	lb := array.NewListBuilder(mem, f32)
	llb := array.NewLargeListBuilder(mem, i64)
	for k := 0; k < 6; k++ {
		if k == 3 {
			lb.AppendNull()
			llb.AppendNull()
			continue
		}
		lb.Append(true)
		llb.Append(true)
		for j := 0; j < k; j++ {
			lb.ValueBuilder().(*array.Float32Builder).Append(float32(j))
			llb.ValueBuilder().(*array.Int64Builder).Append(int64(j))
		}
	}
	out = append(out, lb.NewArray(), llb.NewArray())

	// Ray's Struct<data: LargeList<float32>, shape: List<int64>> with
	// matching, mismatching, negative and null shapes.
	sb := array.NewStructBuilder(mem, rayVarF32)
	db := sb.FieldBuilder(0).(*array.LargeListBuilder)
	shb := sb.FieldBuilder(1).(*array.ListBuilder)
	for _, r := range []struct {
		n     int
		shape []int64
	}{{4, []int64{2, 2}}, {3, []int64{3}}, {2, []int64{1, 2, 1}}, {0, []int64{0, 5}}, {1, []int64{-1, -1}}, {2, nil}} {
		sb.Append(true)
		db.Append(true)
		for j := 0; j < r.n; j++ {
			db.ValueBuilder().(*array.Float32Builder).Append(float32(j))
		}
		if r.shape == nil {
			shb.AppendNull()
		} else {
			shb.Append(true)
			shb.ValueBuilder().(*array.Int64Builder).AppendValues(r.shape, nil)
		}
	}
	sb.AppendNull()
	db.AppendNull()
	shb.AppendNull()
	out = append(out, sb.NewArray())

	// List<List<uint8>> (Hugging Face) with regular, ragged, empty and
	// inner-null rows, and List<List<List<uint8>>>.
	hb := array.NewListBuilder(mem, arrow.ListOf(arrow.PrimitiveTypes.Uint8))
	ib := hb.ValueBuilder().(*array.ListBuilder)
	ub := ib.ValueBuilder().(*array.Uint8Builder)
	for _, row := range [][]int{{2, 2}, {3}, {}, {1, 2}, {2, -1}} {
		hb.Append(true)
		for _, n := range row {
			if n < 0 {
				ib.AppendNull()
				continue
			}
			ib.Append(true)
			for j := 0; j < n; j++ {
				ub.Append(uint8(j))
			}
		}
	}
	out = append(out, hb.NewArray())
	h3 := array.NewListBuilder(mem, hb.Type())
	h3.Append(true)
	h3i := h3.ValueBuilder().(*array.ListBuilder)
	h3i.Append(true)
	h3i.ValueBuilder().(*array.ListBuilder).Append(true)
	h3i.ValueBuilder().(*array.ListBuilder).ValueBuilder().(*array.Uint8Builder).AppendValues([]uint8{1, 2}, nil)
	h3.AppendNull()
	out = append(out, h3.NewArray())

	// FixedSizeList<FixedSizeList<int16>[2]>[3] with a null row, sliced.
	fb := array.NewFixedSizeListBuilder(mem, 3, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int16))
	for k := 0; k < 4; k++ {
		if k == 1 {
			fb.AppendNull()
			continue
		}
		fb.Append(true)
		inner := fb.ValueBuilder().(*array.FixedSizeListBuilder)
		for j := 0; j < 3; j++ {
			inner.Append(true)
			inner.ValueBuilder().(*array.Int16Builder).AppendValues([]int16{int16(k), int16(j)}, nil)
		}
	}
	fsl := fb.NewArray()
	out = append(out, array.NewSlice(fsl, 1, 4))
	fsl.Release()
	t.Cleanup(func() {
		for _, a := range out {
			a.Release()
		}
	})
	return out
}

var fuzzNames = []string{
	"", "ray.data.arrow_tensor", "ray.data.arrow_tensor_v2", "ray.data.arrow_variable_shaped_tensor",
	"datasets.features.features.Array2DExtensionType", "datasets.features.features.Array3DExtensionType",
	"datasets.features.features.Array4DExtensionType", "datasets.features.features.Array5DExtensionType",
}

// FuzzDetect builds a field from a fuzzed extension name (one of the
// dialects' names, or any string) and fuzzed metadata over each fixed
// storage array, calls Detect, and Tensor on every row of a column it
// accepts. Every view it returns must pass Check, have the column's shape
// (when fixed) and ndim, and hold exactly the row's elements; Detect and
// Tensor must return errors, never panic (a panic fails the fuzz run:
// Detect recovers adapters' panics, so they are caught by checking Match
// directly too).
func FuzzDetect(f *testing.F) {
	f.Add(uint8(1), "", "[2, 2]")
	f.Add(uint8(2), "", string([]byte{0x80, 5, 0x95, 7, 0, 0, 0, 0, 0, 0, 0, 'K', 2, 'K', 2, 0x86, 0x94, '.'}))
	f.Add(uint8(3), "", "2")
	f.Add(uint8(3), "", "\x80\x05K\x03.")
	f.Add(uint8(4), "", `[[null, 2], "uint8"]`)
	f.Add(uint8(4), "", `[[2, 2], "uint8"]`)
	f.Add(uint8(5), "", `[[null, 1, 2], "uint8"]`)
	f.Add(uint8(0), "", "")
	f.Add(uint8(255), "my.ext", "x")
	f.Fuzz(func(t *testing.T, pick uint8, name, meta string) {
		if int(pick) < len(fuzzNames) {
			name = fuzzNames[pick]
		}
		for _, arr := range fuzzStorages(t) {
			fld := arrow.Field{Name: "c", Type: arr.DataType(), Nullable: true}
			if name != "" {
				fld = extField("c", arr.DataType(), name, meta)
			}
			in := NewInput(fld, arrow.Metadata{})
			for _, a := range adapters {
				a.Match(in) // must not panic
			}
			col, err := Detect(in)
			if err != nil && strings.Contains(err.Error(), "runtime error") {
				t.Fatalf("%s over %s: adapter panicked: %v", name, arr.DataType(), err)
			}
			if col == nil {
				continue
			}
			for i := 0; i < arr.Len(); i++ {
				tn, err := col.Tensor(arr, i)
				if err != nil {
					continue
				}
				if err := tn.Check(); err != nil {
					t.Fatalf("%s %q row %d: view fails Check: %v", name, meta, i, err)
				}
				if col.Shape != nil && fmt.Sprint(tn.Shape) != fmt.Sprint(col.Shape) {
					t.Fatalf("%s %q row %d: shape %v, column %v", name, meta, i, tn.Shape, col.Shape)
				}
				if col.NDim >= 0 && tn.NDim() != col.NDim {
					t.Fatalf("%s %q row %d: ndim %d, column %d", name, meta, i, tn.NDim(), col.NDim)
				}
				if !arrow.TypeEqual(tn.ValueType(), col.ValueType) {
					t.Fatalf("%s %q row %d: value type %s, column %s", name, meta, i, tn.ValueType(), col.ValueType)
				}
				if vals, start, end, err := ListRow(storageOf(arr), i); err == nil && name != "ray.data.arrow_variable_shaped_tensor" {
					// The view covers exactly the row's flattened range.
					if d := innermost(vals, start, end); d >= 0 && tn.Len() != d {
						t.Fatalf("%s %q row %d: %d elements, the row has %d", name, meta, i, tn.Len(), d)
					}
				}
			}
		}
	})
}

// innermost returns how many innermost values the range [start, end) of a
// list's child spans, or -1 when it cannot tell (a null inner list).
func innermost(vals arrow.Array, start, end int) int {
	for {
		switch l := vals.(type) {
		case *array.List:
			if start == end {
				return 0
			}
			s, _ := l.ValueOffsets(start)
			_, e := l.ValueOffsets(end - 1)
			vals, start, end = l.ListValues(), int(s), int(e)
		case *array.FixedSizeList:
			n := int(l.DataType().(*arrow.FixedSizeListType).Len())
			vals, start, end = l.ListValues(), start*n, end*n
		default:
			return end - start
		}
	}
}
