package query

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// headerSizes knows images' sizes from their headers; it cannot decode
// their pixels, so width and height must not ask for the tensors.
type headerSizes struct{ w, h []int }

func (headerSizes) Tensor(int, int) (tensorext.Tensor, error) {
	return tensorext.Tensor{}, errors.New("no decoder")
}

func (s headerSizes) ImageSize(col, row int) (int, int, error) {
	if s.w[row] < 0 {
		return 0, 0, errors.New("bad header")
	}
	return s.w[row], s.h[row], nil
}

// TestImageSizes: width and height of an image column come from
// ImageSizes; filter, sort and statistics agree with the sizes.
func TestImageSizes(t *testing.T) {
	sizes := headerSizes{w: []int{64, 32, -1, 640, 32, 8}, h: []int{48, 32, 0, 480, 64, 8}}
	bb := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	for range sizes.w {
		bb.Append([]byte("\x89PNG"))
	}
	bb.AppendNull()
	b := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "img", Type: arrow.BinaryTypes.Binary, Nullable: true}}, nil),
		[]arrow.Array{bb.NewArray()}, int64(len(sizes.w)+1))
	cols := []Column{{Name: "img", Type: arrow.BinaryTypes.Binary, Image: true}}
	ctx := context.Background()

	f, err := Compile("width(img) < 60 or height(img) >= 480", cols)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := f.Eval(ctx, b, sizes)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{1, 3, 4, 5}; !slices.Equal(sel.Rows, want) || sel.Unevaluated != 1 || sel.FirstError != "row 2: bad header" {
		t.Errorf("filter: %+v, want %v, 1 unevaluated", sel, want)
	}
	k, _ := ParseSort("-height(img)")
	s, err := BindSort(k, cols)
	if err != nil {
		t.Fatal(err)
	}
	keys := s.NewKeys(0)
	if err := keys.Add(ctx, b, sizes); err != nil {
		t.Fatal(err)
	}
	perm, err := keys.Sort(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{3, 4, 0, 1, 5, 2, 6}; !slices.Equal(perm.Rows(), want) {
		t.Errorf("sort: %v, want %v", perm.Rows(), want)
	}
	st, err := NewStats(k.X, cols, StatsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Add(ctx, b, sizes); err != nil {
		t.Fatal(err)
	}
	r := st.Summary()
	if r.Count != 7 || r.Nulls != 1 || r.Unevaluated != 1 || r.Min != "8" || r.Max != "480" || r.Mean != (48+32+480+64+8)/5.0 || r.Distinct != 5 {
		t.Errorf("stats: %+v", r)
	}
	// mean() of an image reads its pixels: here it cannot.
	f, _ = Compile("mean(img) > 0", cols)
	sel, _ = f.Eval(ctx, b, sizes)
	if len(sel.Rows) != 0 || sel.Unevaluated != 6 || sel.FirstError != "row 0: no decoder" {
		t.Errorf("mean of undecodable images: %+v", sel)
	}
}
