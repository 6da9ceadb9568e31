package decode

// A ParquetSource for native tests: arrow-go's own Parquet reader
// (parquet/file and pqarrow), which tensorview never links into the page
// (the page's source is parquet-wasm, in package app/ui).

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// pqSource reads a Parquet file held in memory with pqarrow. ReadRows reads
// the row group whole (kept for later calls), slices the rows asked for and
// writes them as an IPC stream of record batches of at most batchRows rows
// (several batches when fewer: OpenParquet must join them).
type pqSource struct {
	fr        *pqarrow.FileReader
	schema    *arrow.Schema
	batchRows int64

	mu     sync.Mutex
	tables map[int]arrow.Table
	calls  atomic.Int64
	asked  [][]int // the columns argument of each call, in order
	closed atomic.Bool
}

// newPQSource opens data with pqarrow and returns the source and the
// footer as a ParquetSource reports it.
func newPQSource(t testing.TB, data []byte) (*pqSource, ParquetMeta) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	md := pf.MetaData()
	meta := ParquetMeta{Schema: schemaStream(t, schema), CreatedBy: md.GetCreatedBy(), Version: int(md.FileMetaData.Version)}
	kv := md.KeyValueMetadata()
	for k, key := range kv.Keys() {
		meta.KeyValue = append(meta.KeyValue, KV{key, kv.Values()[k]})
	}
	meta.Columns = make([]ParquetColumn, md.NumColumns())
	for i := range md.NumRowGroups() {
		rg := md.RowGroup(i)
		g := ParquetRowGroup{Rows: rg.NumRows(), CompressedBytes: rg.TotalCompressedSize(), UncompressedBytes: rg.TotalByteSize()}
		for j := range md.NumColumns() {
			cc, err := rg.ColumnChunk(j)
			if err != nil {
				t.Fatal(err)
			}
			g.Chunks = append(g.Chunks, ParquetChunk{CompressedBytes: cc.TotalCompressedSize(), Stats: chunkStats(t, cc)})
			c := &meta.Columns[j]
			c.Path = cc.PathInSchema()
			codec := strings.ToUpper(cc.Compression().String())
			if !contains(c.Codecs, codec) {
				c.Codecs = append(c.Codecs, codec)
			}
		}
		meta.RowGroups = append(meta.RowGroups, g)
	}
	return &pqSource{fr: fr, schema: schema, batchRows: 1 << 30, tables: map[int]arrow.Table{}}, meta
}

// chunkStats are a column chunk's statistics as a ParquetSource reports
// them, for the physical types the tests write (an int32 as int64, a
// float as float64, a byte array as a string); nil when it has none.
func chunkStats(t testing.TB, cc *metadata.ColumnChunkMetaData) *ColumnStats {
	if ok, err := cc.StatsSet(); err != nil || !ok {
		return nil
	}
	st, err := cc.Statistics()
	if err != nil {
		t.Fatal(err)
	}
	out := &ColumnStats{NullCount: -1}
	if st.HasNullCount() {
		out.NullCount = st.NullCount()
	}
	if !st.HasMinMax() {
		return out
	}
	switch s := st.(type) {
	case *metadata.Int32Statistics:
		out.Min, out.Max = int64(s.Min()), int64(s.Max())
	case *metadata.Int64Statistics:
		out.Min, out.Max = s.Min(), s.Max()
	case *metadata.Float32Statistics:
		out.Min, out.Max = float64(s.Min()), float64(s.Max())
	case *metadata.Float64Statistics:
		out.Min, out.Max = s.Min(), s.Max()
	case *metadata.ByteArrayStatistics:
		out.Min, out.Max = string(s.Min()), string(s.Max())
	case *metadata.BooleanStatistics:
		out.Min, out.Max = s.Min(), s.Max()
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// schemaStream is schema as an IPC stream holding only its Schema message.
func schemaStream(t testing.TB, schema *arrow.Schema) []byte {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// table returns row group i read whole by pqarrow.
func (s *pqSource) table(ctx context.Context, i int) (arrow.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tbl, ok := s.tables[i]; ok {
		return tbl, nil
	}
	leaves := make([]int, s.fr.ParquetReader().MetaData().NumColumns())
	for k := range leaves {
		leaves[k] = k
	}
	tbl, err := s.fr.ReadRowGroups(ctx, leaves, []int{i})
	if err != nil {
		return nil, err
	}
	s.tables[i] = tbl
	return tbl, nil
}

func (s *pqSource) ReadRows(ctx context.Context, rowGroup int, offset, limit int64, columns []int) ([]byte, error) {
	s.calls.Add(1)
	s.mu.Lock()
	s.asked = append(s.asked, columns)
	s.mu.Unlock()
	if s.closed.Load() {
		return nil, fmt.Errorf("the source is closed")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tbl, err := s.table(ctx, rowGroup)
	if err != nil {
		return nil, err
	}
	if offset < 0 || limit < 0 || offset+limit > tbl.NumRows() {
		return nil, fmt.Errorf("rows %d..%d outside row group %d of %d rows", offset, offset+limit, rowGroup, tbl.NumRows())
	}
	return tableStream(tbl, offset, limit, columns, s.batchRows)
}

// tableStream writes rows [offset, offset+limit) of the columns of tbl
// (nil: all) as an IPC stream of record batches of at most batchRows rows.
func tableStream(tbl arrow.Table, offset, limit int64, columns []int, batchRows int64) ([]byte, error) {
	if columns == nil {
		columns = make([]int, tbl.NumCols())
		for k := range columns {
			columns[k] = k
		}
	}
	fields := make([]arrow.Field, len(columns))
	cols := make([]arrow.Column, len(columns))
	for j, k := range columns {
		fields[j] = tbl.Schema().Field(k)
		cols[j] = *array.NewColumnSlice(tbl.Column(k), offset, offset+limit)
	}
	md := tbl.Schema().Metadata()
	slice := array.NewTable(arrow.NewSchema(fields, &md), cols, limit)
	defer slice.Release()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(slice.Schema()))
	tr := array.NewTableReader(slice, batchRows)
	defer tr.Release()
	for tr.Next() {
		if err := w.Write(tr.RecordBatch()); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (s *pqSource) Close() error {
	s.closed.Store(true)
	return nil
}

// pqReference reads every row group of data with pqarrow: the reference
// the viewer's values are compared with (one array per row group).
func pqReference(t testing.TB, data []byte) reference {
	t.Helper()
	src, meta := newPQSource(t, data)
	ref := reference{schema: src.schema, cols: make([][]arrow.Array, src.schema.NumFields())}
	for i := range meta.RowGroups {
		tbl, err := src.table(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		for c := range ref.cols {
			arr, err := array.Concatenate(tbl.Column(c).Data().Chunks(), memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			ref.cols[c] = append(ref.cols[c], arr)
		}
	}
	return ref
}
