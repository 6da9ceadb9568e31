package testkit

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// HFImages returns the schema and record batches of a table laid out as a
// Hugging Face image dataset's Arrow files are: batches record batches of
// rowsPer rows, row g (counted over all batches) holding image, the
// datasets library's Image struct{bytes binary, path string} with bytes
// img(g) and path "train/<g, 6 digits>.jpg"; label int64 g%10; caption
// utf8 "a photo of thing <g>"; emb a 16×16 float32 fixed_shape_tensor,
// element k being g + k/256. Every column is nullable, none holds a null.
func HFImages(t testing.TB, batches, rowsPer int, img func(g int) []byte) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	mem := memory.DefaultAllocator
	tt, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{16, 16}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	imgType := arrow.StructOf(
		arrow.Field{Name: "bytes", Type: arrow.BinaryTypes.Binary, Nullable: true},
		arrow.Field{Name: "path", Type: arrow.BinaryTypes.String, Nullable: true},
	)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "image", Type: imgType, Nullable: true},
		{Name: "label", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "caption", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "emb", Type: tt, Nullable: true},
	}, nil)
	recs := make([]arrow.RecordBatch, batches)
	for b := range recs {
		sb := array.NewStructBuilder(mem, imgType)
		bb, pb := sb.FieldBuilder(0).(*array.BinaryBuilder), sb.FieldBuilder(1).(*array.StringBuilder)
		lb, cb := array.NewInt64Builder(mem), array.NewStringBuilder(mem)
		eb := tensorext.NewFixedShapeTensorBuilder(mem, tt)
		e := make([]float32, 16*16)
		for g := b * rowsPer; g < (b+1)*rowsPer; g++ {
			sb.Append(true)
			bb.Append(img(g))
			pb.Append(fmt.Sprintf("train/%06d.jpg", g))
			lb.Append(int64(g % 10))
			cb.Append(fmt.Sprintf("a photo of thing %d", g))
			for k := range e {
				e[k] = float32(g) + float32(k)/256
			}
			if err := eb.AppendTensor(e); err != nil {
				t.Fatal(err)
			}
		}
		recs[b] = array.NewRecordBatch(schema, []arrow.Array{sb.NewArray(), lb.NewArray(), cb.NewArray(), eb.NewArray()}, int64(rowsPer))
	}
	return schema, recs
}
