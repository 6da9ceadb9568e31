package dialect

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

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
