//go:build !wasm

package ui

import (
	"bytes"
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/tensorext"
)

// queryFile writes an Arrow IPC file of batches×per rows: id int64 (the
// row), score float32 (null every 17th row, NaN every 23rd), label a
// dictionary of cat, dog and bird (null every 31st), emb a [2,3] float32
// tensor whose elements are score-like values of the row.
func queryFile(t *testing.T, batches, per int) []byte {
	t.Helper()
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "label", Type: dict, Nullable: true},
		{Name: "emb", Type: typ},
	}, nil)
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	labels := []string{"cat", "dog", "bird"}
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.AppendValues(labels, nil)
	words := sb.NewArray()
	defer words.Release()
	for b := range batches {
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		scores := array.NewFloat32Builder(memory.DefaultAllocator)
		lb := array.NewInt32Builder(memory.DefaultAllocator)
		tb := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
		vals := make([]float32, 0, per*6)
		for k := range per {
			r := b*per + k
			ids.Append(int64(r))
			switch {
			case r%17 == 0:
				scores.AppendNull()
			case r%23 == 0:
				scores.Append(float32(math.NaN()))
			default:
				scores.Append(float32((r*7919)%1000) / 1000)
			}
			if r%31 == 0 {
				lb.AppendNull()
			} else {
				lb.Append(int32((r * 13) % 3))
			}
			for e := range 6 {
				vals = append(vals, float32((r*31+e*17)%101))
			}
		}
		if err := tb.AppendTensors(vals); err != nil {
			t.Fatal(err)
		}
		idx := lb.NewArray()
		rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), scores.NewArray(), array.NewDictionaryArray(dict, idx, words), tb.NewArray()}, int64(per))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// plainRow is a row as arrow-go's own reader reads it.
type plainRow struct {
	id        int64
	score     float32
	scoreNull bool
	label     string
	labelNull bool
	mean      float64
}

// plainRows reads data with arrow-go's IPC file reader, row by row.
func plainRows(t *testing.T, data []byte) []plainRow {
	t.Helper()
	rd, err := ipc.NewFileReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out []plainRow
	for i := range rd.NumRecords() {
		rec, err := rd.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		ids := rec.Column(0).(*array.Int64)
		scores := rec.Column(1).(*array.Float32)
		labels := rec.Column(2).(*array.Dictionary)
		words := labels.Dictionary().(*array.String)
		emb := rec.Column(3).(*tensorext.FixedShapeTensorArray).Storage().(*array.FixedSizeList)
		elems := emb.ListValues().(*array.Float32).Float32Values()
		for k := range int(rec.NumRows()) {
			p := plainRow{id: ids.Value(k), score: scores.Value(k), scoreNull: scores.IsNull(k), labelNull: labels.IsNull(k)}
			if !p.labelNull {
				p.label = words.Value(labels.GetValueIndex(k))
			}
			var s float64
			for _, x := range elems[k*6 : k*6+6] {
				s += float64(x)
			}
			p.mean = s / 6
			out = append(out, p)
		}
	}
	return out
}

// openIndexed opens data with the viewer's decoder and indexes it, as the
// page does before a scan.
func openIndexed(t *testing.T, name string, data []byte) *decode.File {
	t.Helper()
	f, err := decode.Open(name, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFileSource: a sort and a filter over a decode.File through
// fileSource give what a plain loop over arrow-go's reading of the file
// gives; the progress hook is told each batch's column bytes.
func TestFileSource(t *testing.T) {
	data := queryFile(t, 3, 1000)
	want := plainRows(t, data)
	f := openIndexed(t, "q.arrow", data)
	cols := session.QueryColumns(f)
	if !cols[3].Tensor || !slices.Equal(cols[3].DimNames, []string{"a", "b"}) {
		t.Fatalf("emb: %+v, want a tensor column with dim names a, b", cols[3])
	}
	var read []int64
	src := session.FileSource{File: f, Read: func(batch int, n int64) { read = append(read, n) }}
	ctx := context.Background()

	// Filter: label = 'cat' and score > 0.9.
	flt, err := query.Compile("label = 'cat' and score > 0.9", cols)
	if err != nil {
		t.Fatal(err)
	}
	m, unread, err := scan.Filter(ctx, src, flt, scan.Options{Slice: 300})
	if err != nil || unread.Rows != 0 {
		t.Fatalf("filter: %v, unread %+v", err, unread)
	}
	var wantIDs []int64
	for _, r := range want {
		if !r.labelNull && r.label == "cat" && !r.scoreNull && r.score > float32(0.9) {
			wantIDs = append(wantIDs, r.id)
		}
	}
	if got := m.Rows(); !slices.Equal(got, wantIDs) || len(wantIDs) == 0 {
		t.Errorf("filter: %d matches %v…, want %d", len(got), got[:min(5, len(got))], len(wantIDs))
	}
	if len(read) != 3 || read[0] == 0 {
		t.Errorf("column bytes told: %v, want 3 batches' bytes", read)
	}

	// Sort: -score, nulls last, NaN after numbers, stable.
	key, _ := query.ParseSort("-score")
	s, err := query.BindSort(key, cols)
	if err != nil {
		t.Fatal(err)
	}
	perm, _, err := scan.Sort(ctx, src, s, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// In order: numbers descending (ties by row), then NaN, then nulls,
	// each by row; every row once.
	class := func(r plainRow) int {
		if r.scoreNull {
			return 2
		}
		if math.IsNaN(float64(r.score)) {
			return 1
		}
		return 0
	}
	got := perm.Rows()
	seen := make([]bool, len(want))
	for i, r := range got {
		seen[r] = true
		if i == 0 {
			continue
		}
		a, b := want[got[i-1]], want[r]
		var ordered bool
		switch {
		case class(a) != class(b):
			ordered = class(a) < class(b)
		case class(a) == 0 && a.score != b.score:
			ordered = a.score > b.score
		default:
			ordered = a.id < b.id // stable
		}
		if !ordered {
			t.Fatalf("sort -score: position %d row %d (%v) after row %d (%v)", i, r, b, got[i-1], a)
		}
	}
	if len(got) != len(want) || slices.Contains(seen, false) {
		t.Errorf("sort -score: %d rows, not a permutation of %d", len(got), len(want))
	}

	// A tensor statistic: mean(emb) ascending.
	key, _ = query.ParseSort("mean(emb)")
	if s, err = query.BindSort(key, cols); err != nil {
		t.Fatal(err)
	}
	if perm, _, err = scan.Sort(ctx, src, s, scan.Options{}); err != nil {
		t.Fatal(err)
	}
	byMean := slices.Clone(want)
	slices.SortStableFunc(byMean, func(a, b plainRow) int { return cmp.Compare(a.mean, b.mean) })
	if got := perm.Rows(); !slices.Equal(got, ids(byMean)) {
		t.Errorf("sort mean(emb): first %v, want %v", got[:8], ids(byMean)[:8])
	}

	// Both: the sorted order kept to the matches.
	both, err := session.SortedMatches(ctx, perm, m.Perm, int64(len(want)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var wantBoth []int64
	for _, r := range byMean {
		if slices.Contains(wantIDs, r.id) {
			wantBoth = append(wantBoth, r.id)
		}
	}
	if got := session.OrderRows(both); !slices.Equal(got, wantBoth) {
		t.Errorf("filter then sort: %v…, want %v…", got[:min(5, len(got))], wantBoth[:min(5, len(wantBoth))])
	}
}

// TestFileSourceImages: width() and height() of an image column come from
// TestFileSourceUnindexed: a filter starts on an IPC file not indexed yet
// (indexFirst does not wait for the index): the scan reads each batch's
// header as it goes, and finds exactly the rows a plain loop over
// arrow-go's reading finds, by their global numbers, as the grid reads
// them; a sort indexes the file first.
func TestFileSourceUnindexed(t *testing.T) {
	data := queryFile(t, 7, 300)
	want := plainRows(t, data)
	f, err := decode.OpenReader("q.arrow", bytes.NewReader(data), int64(len(data)), decode.Options{SmallFile: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	if err := session.IndexFirst(ctx, f, false, nil); err != nil || f.Indexed() {
		t.Fatalf("indexFirst for a filter: %v, indexed %v; want no index", err, f.Indexed())
	}
	if label, _ := session.ScanLabel(f, "Filtering", []string{"score"}); !strings.Contains(label, "reading ≈ ") {
		t.Errorf("progress line before the index %q, want an estimate", label)
	}
	flt, err := query.Compile("score > 0.5 and score < 0.52", session.QueryColumns(f))
	if err != nil {
		t.Fatal(err)
	}
	m, unread, err := scan.Filter(ctx, session.FileSource{File: f}, flt, scan.Options{Slice: 100})
	if err != nil || unread.Rows != 0 {
		t.Fatalf("filter: %v, unread %+v", err, unread)
	}
	var wantIDs []int64
	for _, r := range want {
		if !r.scoreNull && r.score > 0.5 && r.score < 0.52 {
			wantIDs = append(wantIDs, r.id)
		}
	}
	if got := m.Rows(); !slices.Equal(got, wantIDs) || len(wantIDs) == 0 {
		t.Fatalf("filter: %d matches, want %d", len(got), len(wantIDs))
	}
	for _, row := range wantIDs {
		v, err := f.Value(row, 0)
		if err != nil || v.Array.(*array.Int64).Value(v.Index) != row {
			t.Fatalf("row %d as the grid reads it: %v", row, err)
		}
	}
	if err := session.IndexFirst(ctx, f, true, nil); err != nil || !f.Indexed() {
		t.Errorf("indexFirst for a sort: %v, indexed %v", err, f.Indexed())
	}
	if label, _ := session.ScanLabel(f, "Sorting", []string{"score"}); strings.Contains(label, "≈") {
		t.Errorf("progress line once indexed %q, want exact bytes", label)
	}
}

// the images' headers.
func TestFileSourceImages(t *testing.T) {
	f := decodetest.Open(t, "images_bytes.arrow")
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	cols := session.QueryColumns(f)
	img := -1
	for i, c := range cols {
		if c.Image {
			img = i
		}
	}
	if img < 0 {
		t.Fatal("no image column in images_bytes.arrow")
	}
	name := query.ColumnName(cols[img].Name)
	flt, err := query.Compile("width("+name+") > 0", cols)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := scan.Filter(context.Background(), session.FileSource{File: f}, flt, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Every row whose value is a picture the grid shows has a width.
	rows, _ := f.Rows()
	var pictures []int64
	for r := range rows {
		v, err := f.Value(r, img)
		if err != nil {
			t.Fatal(err)
		}
		if b, info, err := v.Encoded(); err == nil && b != nil && info.Width > 0 {
			pictures = append(pictures, r)
		}
	}
	if got := m.Rows(); !slices.Equal(got, pictures) || len(pictures) == 0 {
		t.Errorf("width(%s) > 0: rows %v, want %v", name, got, pictures)
	}
}

func ids(rows []plainRow) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.id
	}
	return out
}
