package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
	"github.com/tensorview/tensorview/tensorext"
)

// FileSource is a decode.File as the scan.Source of a sort or filter over
// the whole file (package scan), in plain Go: the columns a query needs,
// batch after batch (File.ReadColumns), their tensors read as the grid
// reads them (File.ValueIn: canonical tensors, dialects, decoded images)
// and images' sizes from their headers. A sort needs its file indexed
// (File.Index) first, for the row total; a filter of an IPC file does not
// (BatchRows reads the batches' headers as it goes). native tests:
// scansource_test.go.
type FileSource struct {
	File *decode.File
	// read, when set, is told the bytes of the columns each batch read
	// takes in the file (File.ColumnBytes), before it is read: the
	// progress line's "reading N MB of column x".
	Read func(batch int, bytes int64)
}

func (s FileSource) Schema() *arrow.Schema { return s.File.Schema }
func (s FileSource) NumBatches() int       { return s.File.NumBatches() }

// BatchRows reads batch i's header when the file is not indexed yet: a
// filter scans an IPC file's first batches while Index reads the others'
// headers.
func (s FileSource) BatchRows(i int) (int64, error) { return s.File.BatchRowCount(i) }

func (s FileSource) Rows() (n int64, exact bool) { return s.File.Rows() }

func (s FileSource) ReadColumns(ctx context.Context, i int, cols []int) (arrow.RecordBatch, query.Tensors, error) {
	if s.Read != nil {
		n, _ := s.File.ColumnBytes(i, cols)
		s.Read(i, n)
	}
	rec, err := s.File.ReadColumns(ctx, i, cols)
	if err != nil {
		return nil, nil, err
	}
	return rec, batchTensors{f: s.File, rec: rec, cols: cols}, nil
}

// Bounds are field col's bounds in row group i of a Parquet file, from
// its footer's statistics (File.ColumnStats): a filter skips the row
// groups where no row can match. None for Arrow files.
func (s FileSource) Bounds(i, col int) (query.Bounds, bool) {
	st, ok := s.File.ColumnStats(i, col)
	if !ok {
		return query.Bounds{}, false
	}
	return query.Bounds{Nulls: st.NullCount, Min: st.Min, Max: st.Max}, true
}

var _ scan.BoundsSource = FileSource{}

// IndexFirst indexes f (File.Index) when a scan of it needs every
// batch's row count before it starts: a sort (sorting: its keys are
// sized for every row), a scan of a stream (whose batches are found by
// scanning it) or of a dataset (its record batches are numbered once its
// files are open). A filter or statistics of an IPC file start at once,
// reading the batches' headers as they go while the page indexes the rest.
// progress (when not nil) sees the index's progress (File.Index).
func IndexFirst(ctx context.Context, f *decode.File, sorting bool, progress func(done, total int64)) error {
	if f.Indexed() || (!sorting && f.Format == decode.IPCFile && f.Shards() == nil) {
		return nil
	}
	return f.Index(ctx, progress)
}

// IndexFirstLabel is the progress line of a scan waiting for indexFirst.
func IndexFirstLabel(f *decode.File) string {
	if f.Shards() != nil {
		return "Opening the dataset's files first"
	}
	return "Indexing record batches first"
}

// batchTensors reads the tensors and image sizes of a batch ReadColumns
// read: col is the column's index in the batch, cols[col] its field's.
type batchTensors struct {
	f    *decode.File
	rec  arrow.RecordBatch
	cols []int
}

func (t batchTensors) value(col, row int) (decode.Value, error) {
	if col < 0 || col >= len(t.cols) {
		return decode.Value{}, fmt.Errorf("no column %d", col)
	}
	return t.f.ValueIn(t.cols[col], t.rec.Column(col), row)
}

func (t batchTensors) Tensor(col, row int) (tensorext.Tensor, error) {
	v, err := t.value(col, row)
	if err != nil {
		return tensorext.Tensor{}, err
	}
	return v.Tensor()
}

// ImageSize is an encoded image's size from its header, without decoding
// its pixels (query.ImageSizes).
func (t batchTensors) ImageSize(col, row int) (width, height int, err error) {
	v, err := t.value(col, row)
	if err != nil {
		return 0, 0, err
	}
	if v.Array.IsNull(v.Index) {
		return 0, 0, tensorext.ErrNullTensor
	}
	b, info, err := v.Encoded()
	switch {
	case err != nil:
		return 0, 0, err
	case b == nil:
		return 0, 0, errNoImage
	}
	return info.Width, info.Height, nil
}

var errNoImage = errors.New("not an encoded image")

// QueryColumns are the columns a query may name in f: its schema's
// (query.ColumnsOf), with the columns f reads as tensors (dialects
// included) or as encoded images marked so, with their logical dimension
// names.
func QueryColumns(f *decode.File) []query.Column {
	cols := query.ColumnsOf(f.Schema)
	for i, fld := range f.Fields() {
		if i >= len(cols) {
			break
		}
		switch {
		case fld.Images:
			cols[i].Image, cols[i].Tensor = true, false
		case fld.Tensor != nil && !cols[i].Tensor:
			// A dialect: its dimension names are as read (no
			// permutation).
			cols[i].Tensor, cols[i].DimNames, cols[i].NDim = true, fld.Tensor.DimNames, fld.Tensor.NDim
		}
	}
	return cols
}

// QueryReport is how often a scan updates the page at most.
const QueryReport = 100 * time.Millisecond

// ScanLabel is a scan's progress line, "Sorting · reading 12 MB of column
// score", with the bytes of the columns needs in f.
func ScanLabel(f *decode.File, verb string, needs []string) (string, int64) {
	var cols []int
	for _, n := range needs {
		if idx := f.Schema.FieldIndices(n); len(idx) > 0 {
			cols = append(cols, idx[0])
		}
	}
	// ColumnBytes takes the columns in increasing order, once each.
	slices.Sort(cols)
	cols = slices.Compact(cols)
	total, exact, err := f.ColumnsBytes(cols)
	noun := "column"
	if len(needs) > 1 {
		noun = "columns"
	}
	size := decode.HumanBytes(total)
	switch {
	case err != nil:
		return fmt.Sprintf("%s · reading %s %s", verb, noun, strings.Join(needs, ", ")), 0
	case !exact:
		size = "≈ " + size
	}
	return fmt.Sprintf("%s · reading %s of %s %s", verb, size, noun, strings.Join(needs, ", ")), total
}

// RowsProgress is the progress line after p, keeping its label.
func RowsProgress(cur *Progress, p scan.Progress) *Progress {
	out := Progress{RowsDone: p.Rows, RowsTotal: p.Total}
	if cur != nil {
		out.Label, out.Done, out.Total = cur.Label, cur.Done, cur.Total
	}
	if p.Matches != nil {
		out.Rows = int64(p.Matches.Len())
	}
	return &out
}

// Throttled calls report at most every queryReport, and for the last
// rows.
func Throttled(report func(scan.Progress)) func(scan.Progress) {
	var last time.Time
	return func(p scan.Progress) {
		if p.Rows < p.Total && time.Since(last) < QueryReport {
			return
		}
		last = time.Now()
		report(p)
	}
}

// UnreadNote says what a scan could not read or evaluate.
func UnreadNote(u scan.Unread, unevaluated int64, firstErr string) []string {
	var out []string
	switch {
	case u.Rows > 0:
		out = append(out, fmt.Sprintf("%s rows could not be read (%s).", GroupDigits(u.Rows), u.FirstError))
	case u.FirstError != "":
		out = append(out, fmt.Sprintf("Some rows could not be read (%s).", u.FirstError))
	}
	if unevaluated > 0 {
		out = append(out, fmt.Sprintf("%s rows could not be evaluated (%s).", GroupDigits(unevaluated), firstErr))
	}
	return out
}

// YieldToPage lets the browser's event loop run (Go's wasm is one thread:
// while every goroutine waits, the page handles input and paints).
func YieldToPage() { time.Sleep(time.Millisecond) }

// GroupDigits writes n with its digits in groups of three: 3,000,000.
func GroupDigits(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
