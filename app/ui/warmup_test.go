//go:build !wasm

package ui

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/app/ui/grid"
	"github.com/tensorview/tensorview/tensorext"
)

// writeWarmUpFile writes the warm-up file (warmup.arrow): one record batch
// of warmUpRows rows of an int64 id, a 16×16×3 uint8 image tensor (dims
// H,W,C; a colour gradient shifted by the row), a float32 score, a string
// label and an 8×8 float32 tensor (dims H,W).
func writeWarmUpFile() ([]byte, error) {
	mem := memory.DefaultAllocator
	image, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{16, 16, 3}, nil, []string{"H", "W", "C"})
	if err != nil {
		return nil, err
	}
	depth, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{8, 8}, nil, []string{"H", "W"})
	if err != nil {
		return nil, err
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "image", Type: image, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: arrow.BinaryTypes.String},
		{Name: "depth", Type: depth, Nullable: true},
	}, nil)
	ids := array.NewInt64Builder(mem)
	images := tensorext.NewFixedShapeTensorBuilder(mem, image)
	scores := array.NewFloat32Builder(mem)
	labels := array.NewStringBuilder(mem)
	depths := tensorext.NewFixedShapeTensorBuilder(mem, depth)
	for r := range warmUpRows {
		ids.Append(int64(r))
		px := make([]uint8, 16*16*3)
		for k := range px {
			px[k] = uint8(k*5 + r*17)
		}
		if err := images.AppendTensor(px); err != nil {
			return nil, err
		}
		scores.Append(float32(r) / 4)
		labels.Append(fmt.Sprintf("row %d", r))
		d := make([]float32, 64)
		for k := range d {
			d[k] = float32(k%8+k/8) + float32(r)/2
		}
		if err := depths.AppendTensor(d); err != nil {
			return nil, err
		}
	}
	cols := []arrow.Array{ids.NewArray(), images.NewArray(), scores.NewArray(), labels.NewArray(), depths.NewArray()}
	rec := array.NewRecordBatch(schema, cols, warmUpRows)
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
	if err != nil {
		return nil, err
	}
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// TestWarmUpFile checks that warmup.arrow is what writeWarmUpFile writes
// (WARMUP_UPDATE=1 rewrites it) and that the viewer reads it as the
// warm-up needs: its record batch by windows of 8 rows under warmUpBudget,
// as a big file's, and its tensors with previews.
func TestWarmUpFile(t *testing.T) {
	want, err := writeWarmUpFile()
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("WARMUP_UPDATE") != "" {
		if err := os.WriteFile("warmup.arrow", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(warmUpFile, want) {
		t.Fatalf("warmup.arrow (%d bytes) is not what writeWarmUpFile writes (%d bytes): run WARMUP_UPDATE=1 go test -run TestWarmUpFile ./app/ui", len(warmUpFile), len(want))
	}
	f, err := decode.OpenReader("warm-up.arrow", bytes.NewReader(warmUpFile), int64(len(warmUpFile)), decode.Options{Budget: warmUpBudget})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if n, exact := f.Rows(); n != warmUpRows || !exact {
		t.Fatalf("Rows() = %d, %v; want %d, true", n, exact, warmUpRows)
	}
	for _, row := range []int64{0, 7, 8, warmUpRows - 1} {
		if b, w, ok := f.Window(row); !ok || b != 0 || w != int(row/8) {
			t.Fatalf("Window(%d) = %d, %d, %v; want 0, %d, true (read by windows of 8 rows)", row, b, w, ok, row/8)
		}
	}
	if err := f.Load(0); err != nil {
		t.Fatal(err)
	}
	if f.WindowState(7) != decode.Loaded || f.WindowState(8) != decode.Unread {
		t.Fatalf("after Load(0): WindowState(7) = %s, WindowState(8) = %s; want loaded, unread", f.WindowState(7), f.WindowState(8))
	}
	box := grid.PreviewBox("medium", 1)
	for col, name := range []string{"id", "image", "score", "label", "depth"} {
		c := summary.In(f, 3, col, box[0], box[1])
		if c.Err != "" {
			t.Fatalf("row 3, %s: %s", name, c.Err)
		}
		switch name {
		case "image", "depth":
			if c.Tensor == nil || c.Tensor.Preview == nil {
				t.Fatalf("row 3, %s: no tensor preview: %+v", name, c)
			}
			side := map[string]int{"image": 16, "depth": 8}[name]
			if b := c.Tensor.Preview.Bounds(); b.Dx() != side || b.Dy() != side {
				t.Fatalf("row 3, %s: preview %v, want %d×%d", name, b, side, side)
			}
		case "label":
			if c.Text != "row 3" {
				t.Fatalf("row 3, label: %q, want %q", c.Text, "row 3")
			}
		}
	}
}
