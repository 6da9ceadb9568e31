package tensorext

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestIPCRoundTrip(t *testing.T) {
	vt := buildVariable(t)
	defer vt.Release()
	ftyp, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, 3}, []int{1, 0}, []string{"H", "W"})
	fb := NewFixedShapeTensorBuilder(memory.DefaultAllocator, ftyp)
	defer fb.Release()
	for r := 0; r < 4; r++ {
		if r == 2 {
			fb.AppendNull()
			continue
		}
		_ = fb.AppendTensor([]uint8{uint8(r), 1, 2, 3, 4, 5})
	}
	ft := fb.NewFixedShapeTensorArray()
	defer ft.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "f", Type: ftyp, Nullable: true}, {Name: "v", Type: vt.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{ft, vt}, 4)
	defer rec.Release()
	for _, format := range []string{"file", "stream"} {
		var buf bytes.Buffer
		var got arrow.RecordBatch
		if format == "file" {
			w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			w.Close()
			r, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			got, err = r.RecordBatch(0)
			if err != nil {
				t.Fatal(err)
			}
			got.Retain()
			r.Close()
		} else {
			w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			w.Close()
			r, err := ipc.NewReader(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Next() {
				t.Fatal(r.Err())
			}
			got = r.RecordBatch()
			got.Retain()
			r.Release()
		}
		if !array.RecordEqual(rec, got) {
			t.Errorf("%s: record differs after round trip", format)
		}
		gf := got.Column(0).(*FixedShapeTensorArray)
		if gf.TensorType().Serialize() != ftyp.Serialize() || !gf.TensorType().ExtensionEquals(ftyp) {
			t.Errorf("%s: type %s", format, gf.DataType())
		}
		gv := got.Column(1).(*VariableShapeTensorArray)
		if s := gv.TensorType().Serialize(); s != vt.TensorType().Serialize() {
			t.Errorf("%s: variable metadata %s", format, s)
		}
		got.Release()
	}
}
