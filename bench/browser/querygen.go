package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/tensorview/tensorview/tensorext"
)

// The query layout (BENCH_LAYOUTS=query): the sort and filter
// dataset, BENCH_QUERY_ROWS rows (10M) of
//
//	id      int64, the row
//	score   float32, k/2^24 for k = a permutation of the rows: distinct
//	        values spread over [0, 1), so that an order is unique
//	label   dictionary<int32, utf8> of qLabels (20 words, cat among them)
//	caption utf8, about 40 bytes
//	ts      timestamp[us, UTC], a second apart
//	emb     fixed_shape_tensor<float32>[2, 2]
//
// as an Arrow IPC file in record batches of qBatchRows rows, and as a
// Parquet file (parquet-wasm 0.8.0, arrow-rs's writer: snappy, dictionary
// encoding where it pays, a page index, a row group per record batch, the
// Arrow schema in ARROW:schema so that label stays a dictionary and emb a
// fixed_shape_tensor).
const (
	layoutQuery = "query"
	qBatchRows  = 64 << 10
	qVersion    = 1
	qSortKey    = "-score"
	qFilter     = "label = 'cat' and score > 0.9"
	qScoreDen   = 1 << 24 // score's denominator: float32 holds k/2^24 exactly
	qMaxRows    = qScoreDen
)

var qLabels = []string{"cat", "dog", "bird", "fish", "horse", "sheep", "cow", "bear", "zebra", "giraffe",
	"car", "bus", "train", "boat", "plane", "bike", "chair", "table", "lamp", "clock"}

var qPlaces = []string{"park", "street", "kitchen", "field", "harbour", "garden", "station", "forest"}

// qScore is row i's score: (i·a + b) mod 2^24 over 2^24, a odd, so that
// the rows below 2^24 all have different scores.
func qScore(i int) float32 {
	return float32((uint32(i)*2654435761+12345)&(qScoreDen-1)) / qScoreDen
}

// qLabel is row i's label's index in qLabels.
func qLabel(i int) int { return int((uint64(i)*0x9E3779B97F4A7C15)>>40) % len(qLabels) }

func qCaption(i int) string {
	return "photo " + strconv.Itoa(i) + " of a " + qLabels[qLabel(i)] + " in the " + qPlaces[i%len(qPlaces)]
}

// qMatch tells whether row i matches qFilter.
func qMatch(i int) bool { return qLabels[qLabel(i)] == "cat" && qScore(i) > 0.9 }

// queryFile is one of the query layout's files, with what a reader of it
// must find (for checking the viewers' answers) and the bytes of its
// columns (Sidecar JSON beside it, so that a later run reuses it).
type queryFile struct {
	Path    string `json:"path"`
	Format  string `json:"format"` // arrow or parquet
	Rows    int    `json:"rows"`
	Batches int    `json:"batches"` // record batches or row groups
	Bytes   int64  `json:"bytes"`
	Version int    `json:"version"`
	// ColumnBytes are each column's bytes in the file: the Arrow buffers
	// of its record batches (and its dictionary), or its Parquet column
	// chunks (compressed, dictionary pages included).
	ColumnBytes map[string]int64 `json:"column_bytes"`
	// Top are the ids of the first rows by score descending; Matches the
	// rows of qFilter, FirstMatches the first of them in file order.
	Top          []int64 `json:"top"`
	Matches      int64   `json:"matches"`
	FirstMatches []int64 `json:"first_matches"`
}

// qTopN is how many rows of the answers are kept to check the viewers'.
const qTopN = 50

func queryPlan(dir string, rows int, format string) queryFile {
	return queryFile{
		Path:    filepath.Join(dir, fmt.Sprintf("query-%s.%s", rowsName(rows), format)),
		Format:  format,
		Rows:    rows,
		Batches: (rows + qBatchRows - 1) / qBatchRows,
		Version: qVersion,
	}
}

// rowsName writes a row count as a file name part: 10M, 1M, 3000.
func rowsName(n int) string {
	switch {
	case n%1_000_000 == 0:
		return strconv.Itoa(n/1_000_000) + "M"
	case n%1000 == 0:
		return strconv.Itoa(n/1000) + "K"
	}
	return strconv.Itoa(n)
}

// parseRows reads a row count like 10M, 1M, 500K or 3000 (decimal units).
func parseRows(s string) (int, error) {
	f, ok := scaled(s, 1000)
	n := int(f)
	if !ok || n < 1 || n > qMaxRows {
		return 0, fmt.Errorf("bad row count %q: want e.g. 10M, 1M, 3000 (at most %d)", s, qMaxRows)
	}
	return n, nil
}

// ensureQuery writes f unless the same generator wrote it already.
func ensureQuery(f queryFile, logf func(string, ...any)) (queryFile, error) {
	if data, err := os.ReadFile(f.Path + ".json"); err == nil {
		var old queryFile
		info, serr := os.Stat(f.Path)
		if json.Unmarshal(data, &old) == nil && serr == nil && old.Version == f.Version && old.Rows == f.Rows &&
			old.Format == f.Format && old.Batches == f.Batches && info.Size() == old.Bytes {
			old.Path = f.Path
			logf("reusing %s (%d rows, %.1f MB)", f.Path, old.Rows, float64(old.Bytes)/1e6)
			return old, nil
		}
	}
	logf("writing %s: %d rows in %d record batches", f.Path, f.Rows, f.Batches)
	var err error
	f.Bytes, err = writeVia(f.Path, int64(f.Rows)*100, func(tmp string) error {
		if f.Format == "parquet" {
			return writeQueryParquet(tmp, f)
		}
		return writeQueryArrow(tmp, f)
	})
	if err == nil {
		f.ColumnBytes, err = columnBytes(f.Path, f.Format)
	}
	if err != nil {
		return f, err
	}
	f.Top, f.Matches, f.FirstMatches = queryAnswers(f.Rows)
	return f, writeSidecar(f.Path, f)
}

// queryAnswers are the first qTopN ids by score descending, the number of
// rows matching qFilter and the first qTopN of them, from the generator's
// functions.
func queryAnswers(rows int) (top []int64, matches int64, first []int64) {
	// The top scores are the largest k: walk k down from 2^24-1 and keep
	// the rows below rows that have it (k = i·a + b mod 2^24 is invertible).
	const a, b = 2654435761, 12345
	inv := uint32(1) // a's inverse mod 2^32 (Newton's iteration)
	for range 5 {
		inv *= 2 - a*inv
	}
	for k := uint32(qScoreDen - 1); len(top) < min(qTopN, rows); k-- {
		i := ((k - b) * inv) & (qScoreDen - 1)
		if int(i) < rows {
			top = append(top, int64(i))
		}
	}
	for i := range rows {
		if qMatch(i) {
			matches++
			if len(first) < qTopN {
				first = append(first, int64(i))
			}
		}
	}
	return top, matches, first
}

// querySchema is the query layout's schema.
func querySchema() (*arrow.Schema, *tensorext.FixedShapeTensorType, error) {
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 2}, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "caption", Type: arrow.BinaryTypes.String},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "emb", Type: typ},
	}, nil), typ, nil
}

// queryBatch builds the record batch of rows [first, first+n).
func queryBatch(mem memory.Allocator, schema *arrow.Schema, typ *tensorext.FixedShapeTensorType, first, n int) (arrow.RecordBatch, error) {
	ids := array.NewInt64Builder(mem)
	defer ids.Release()
	scores := array.NewFloat32Builder(mem)
	defer scores.Release()
	labels := array.NewInt32Builder(mem)
	defer labels.Release()
	labels.Reserve(n)
	captions := array.NewStringBuilder(mem)
	defer captions.Release()
	ts := array.NewTimestampBuilder(mem, schema.Field(4).Type.(*arrow.TimestampType))
	defer ts.Release()
	embs := tensorext.NewFixedShapeTensorBuilder(mem, typ)
	defer embs.Release()
	ids.Reserve(n)
	scores.Reserve(n)
	captions.Reserve(n)
	ts.Reserve(n)
	vals := make([]float32, 0, 4*n)
	const t0 = 1_700_000_000_000_000 // 2023-11-14, in µs
	for i := first; i < first+n; i++ {
		ids.Append(int64(i))
		scores.Append(qScore(i))
		labels.Append(int32(qLabel(i)))
		captions.Append(qCaption(i))
		ts.Append(arrow.Timestamp(t0 + int64(i)*1_000_000))
		vals = append(vals, float32(i%97), float32(i%89)/4, qScore(i), float32(qLabel(i)))
	}
	if err := embs.AppendTensors(vals); err != nil {
		return nil, err
	}
	// Every batch has the same dictionary, qLabels in order (no delta or
	// replacement dictionaries).
	words := array.NewStringBuilder(mem)
	defer words.Release()
	words.AppendValues(qLabels, nil)
	dict, idx := words.NewArray(), labels.NewArray()
	defer dict.Release()
	defer idx.Release()
	lab := array.NewDictionaryArray(schema.Field(2).Type, idx, dict)
	cols := []arrow.Array{ids.NewArray(), scores.NewArray(), lab, captions.NewArray(), ts.NewArray(), embs.NewFixedShapeTensorArray()}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(schema, cols, int64(n)), nil
}

func writeQueryArrow(path string, f queryFile) error {
	schema, typ, err := querySchema()
	if err != nil {
		return err
	}
	mem := memory.NewGoAllocator()
	return writeArrowBatches(path, schema, f.Rows, qBatchRows, func(first, n int) (arrow.RecordBatch, error) {
		return queryBatch(mem, schema, typ, first, n)
	})
}

// writeQueryParquet writes the Parquet file with parquet-wasm
// (parquet_gen.mjs): arrow-go's pqarrow does not write fixed_size_list
// columns.
func writeQueryParquet(path string, f queryFile) error {
	schema, typ, err := querySchema()
	if err != nil {
		return err
	}
	mem := memory.NewGoAllocator()
	return pipeParquet(path, schema, pqOptions{rowGroupRows: qBatchRows, codec: "SNAPPY", dictionary: true}, f.Rows,
		func(first, n int) (arrow.RecordBatch, error) { return queryBatch(mem, schema, typ, first, n) })
}

// columnBytes are the bytes of each top-level column of the file at path:
// the Arrow buffers of its record batches (a dictionary counted once), or
// its Parquet column chunks.
func columnBytes(path, format string) (map[string]int64, error) {
	out := map[string]int64{}
	if format == "parquet" {
		r, err := file.OpenParquetFile(path, false)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		md := r.MetaData()
		for g := range md.NumRowGroups() {
			rg := md.RowGroup(g)
			for c := range rg.NumColumns() {
				cc, err := rg.ColumnChunk(c)
				if err != nil {
					return nil, err
				}
				top, _, _ := strings.Cut(cc.PathInSchema().String(), ".")
				out[top] += cc.TotalCompressedSize()
			}
		}
		return out, nil
	}
	in, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	r, err := ipc.NewFileReader(in)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for b := range r.NumRecords() {
		rec, err := r.RecordBatch(b)
		if err != nil {
			return nil, err
		}
		for c, col := range rec.Columns() {
			out[rec.Schema().Field(c).Name] += dataBytes(col.Data(), b == 0)
		}
	}
	return out, nil
}

// dataBytes are the bytes of d's buffers and its children's, and of its
// dictionary when dict.
func dataBytes(d arrow.ArrayData, dict bool) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c, dict)
	}
	if dd, ok := d.Dictionary().(*array.Data); ok && dd != nil && dict {
		n += dataBytes(dd, false)
	}
	return n
}

// involved is the bytes of the named columns of f.
func (f queryFile) involved(cols ...string) int64 {
	var n int64
	for _, c := range cols {
		n += f.ColumnBytes[c]
	}
	return n
}

// sortedKeys are m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
