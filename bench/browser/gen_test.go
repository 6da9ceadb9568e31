package main

import (
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// TestGenerate writes small files in every layout (the single batch through
// memory-mapped scratch files), reads them back and reuses them.
func TestGenerate(t *testing.T) {
	defer func(old int64) { scratchMin = old }(scratchMin)
	scratchMin = 1 << 20
	dir := t.TempDir()
	for _, layout := range []string{layoutB256, layoutSingle} {
		f, err := plan(dir, "40M", layout)
		if err != nil {
			t.Fatal(err)
		}
		f, err = ensure(f, t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		if f.Rows != 278 {
			t.Errorf("%s: %d rows, want 278", layout, f.Rows)
		}
		in, err := os.Open(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ipc.NewFileReader(in, ipc.WithAllocator(memory.DefaultAllocator))
		if err != nil {
			t.Fatal(err)
		}
		if r.NumRecords() != f.Batches {
			t.Errorf("%s: %d batches, want %d", layout, r.NumRecords(), f.Batches)
		}
		rows := 0
		for i := range r.NumRecords() {
			rec, err := r.RecordBatch(i)
			if err != nil {
				t.Fatal(err)
			}
			arr, ok := rec.Column(1).(*tensorext.FixedShapeTensorArray)
			if !ok {
				t.Fatalf("image column is %T", rec.Column(1))
			}
			if err := arr.ValidateFull(); err != nil {
				t.Fatal(err)
			}
			last := int(rec.NumRows()) - 1
			tn, err := arr.Tensor(last)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]uint8, tensorBytes)
			fillImages(want, rows+last, 1)
			got := tn.Values.(*array.Uint8).Uint8Values()[tn.Offset : tn.Offset+tensorBytes]
			if string(got) != string(want) {
				t.Errorf("%s: pixels of row %d differ", layout, rows+last)
			}
			rows += int(rec.NumRows())
		}
		r.Close()
		in.Close()
		if rows != f.Rows {
			t.Errorf("%s: read %d rows, want %d", layout, rows, f.Rows)
		}
		if _, ok := existing(f); !ok {
			t.Errorf("%s: the file written is not reused", layout)
		}
	}
	leftovers, _ := os.ReadDir(dir)
	if len(leftovers) != 4 {
		t.Errorf("files left: %v", leftovers)
	}
}

func TestPlan(t *testing.T) {
	f, err := plan("/x", "6G", layoutSingle)
	if err != nil || f.Rows != 42791 || f.ChildLen != 42791*150528 || f.Note == "" {
		t.Errorf("6G single: %+v %v", f, err)
	}
	f, err = plan("/x", "6G", layoutSingle32)
	if err != nil || f.Rows != 14266 || f.ChildLen > 1<<31-1 {
		t.Errorf("6G single32: %+v %v", f, err)
	}
	if _, err := plan("/x", "big", layoutB256); err == nil {
		t.Error("size big accepted")
	}
}

func TestPlanJPEG(t *testing.T) {
	f, err := plan(t.TempDir(), "100M", layoutJPEG4K)
	if err != nil {
		t.Fatal(err)
	}
	if want := int((100 << 20) / jpegRowBytesEs); f.Rows != want || f.Batches != (want+jpegBatchRows-1)/jpegBatchRows {
		t.Errorf("100M of 4K JPEGs: %d rows in %d batches, want %d rows", f.Rows, f.Batches, want)
	}
}
