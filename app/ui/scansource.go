package ui

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
	"github.com/tensorview/tensorview/tensorext"
)

// fileSource is a decode.File as the scan.Source of a sort or filter over
// the whole file (package scan), in plain Go: the columns a query needs,
// batch after batch (File.ReadColumns), their tensors read as the grid
// reads them (File.ValueIn: canonical tensors, dialects, decoded images)
// and images' sizes from their headers. A sort needs its file indexed
// (File.Index) first, for the row total; a filter of an IPC file does not
// (BatchRows reads the batches' headers as it goes). native tests:
// scansource_test.go.
type fileSource struct {
	f *decode.File
	// read, when set, is told the bytes of the columns each batch read
	// takes in the file (File.ColumnBytes), before it is read: the
	// progress line's "reading N MB of column x".
	read func(batch int, bytes int64)
}

func (s fileSource) Schema() *arrow.Schema { return s.f.Schema }
func (s fileSource) NumBatches() int       { return s.f.NumBatches() }

// BatchRows reads batch i's header when the file is not indexed yet: a
// filter scans an IPC file's first batches while Index reads the others'
// headers.
func (s fileSource) BatchRows(i int) (int64, error) { return s.f.BatchRowCount(i) }

func (s fileSource) Rows() (n int64, exact bool) { return s.f.Rows() }

func (s fileSource) ReadColumns(ctx context.Context, i int, cols []int) (arrow.RecordBatch, query.Tensors, error) {
	if s.read != nil {
		n, _ := s.f.ColumnBytes(i, cols)
		s.read(i, n)
	}
	rec, err := s.f.ReadColumns(ctx, i, cols)
	if err != nil {
		return nil, nil, err
	}
	return rec, batchTensors{f: s.f, rec: rec, cols: cols}, nil
}

// Bounds are field col's bounds in row group i of a Parquet file, from
// its footer's statistics (File.ColumnStats): a filter skips the row
// groups where no row can match. None for Arrow files.
func (s fileSource) Bounds(i, col int) (query.Bounds, bool) {
	st, ok := s.f.ColumnStats(i, col)
	if !ok {
		return query.Bounds{}, false
	}
	return query.Bounds{Nulls: st.NullCount, Min: st.Min, Max: st.Max}, true
}

var _ scan.BoundsSource = fileSource{}

// indexFirst indexes f (File.Index) when a scan of it needs every
// batch's row count before it starts: a sort (sorting: its keys are
// sized for every row), a scan of a stream (whose batches are found by
// scanning it) or of a dataset (its record batches are numbered once its
// files are open). A filter or statistics of an IPC file start at once,
// reading the batches' headers as they go while the page indexes the rest.
// progress (when not nil) sees the index's progress (File.Index).
func indexFirst(ctx context.Context, f *decode.File, sorting bool, progress func(done, total int64)) error {
	if f.Indexed() || (!sorting && f.Format == decode.IPCFile && f.Shards() == nil) {
		return nil
	}
	return f.Index(ctx, progress)
}

// indexFirstLabel is the progress line of a scan waiting for indexFirst.
func indexFirstLabel(f *decode.File) string {
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

// queryColumns are the columns a query may name in f: its schema's
// (query.ColumnsOf), with the columns f reads as tensors (dialects
// included) or as encoded images marked so, with their logical dimension
// names.
func queryColumns(f *decode.File) []query.Column {
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
