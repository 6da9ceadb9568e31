package decode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/nullarray"
)

// Parquet files are read by a ParquetSource, which turns the file's row
// groups into Arrow IPC: in the browser parquet-wasm (arrow-rs's Parquet
// reader) running in a worker (package app/ui), natively in tests arrow-go's
// pqarrow. The source restores the Arrow schema stored in the file
// (ARROW:schema), extension types included, so a fixed_shape_tensor written
// by pyarrow or arrow-rs reads back as a tensor. OpenParquet turns each row
// group into one of File's record batches, read (whole or by windows of
// rows) when one of its rows is asked for, into the same budgeted cache.

// Parquet is the format of a File opened by OpenParquet.
const Parquet Format = "Parquet"

// ErrParquet is what OpenReader's error wraps for a Parquet file (its first
// bytes are "PAR1"): open it with OpenParquet and a ParquetSource instead.
var ErrParquet = errors.New("a Parquet file")

// ParquetMeta is what a Parquet file's footer says (Parquet format
// specification, FileMetaData), as a ParquetSource reports it.
type ParquetMeta struct {
	// Schema is the Arrow schema the source reads the file as, serialized
	// as an Arrow IPC stream holding only a Schema message (what
	// ReadRows' streams start with).
	Schema []byte
	// CreatedBy is the footer's created_by ("parquet-cpp-arrow version
	// 17.0.0"), "" when absent.
	CreatedBy string
	// Version is the footer's format version (1 or 2).
	Version int
	// KeyValue is the footer's key_value_metadata in file order (ARROW:schema
	// included: its value is base64 text).
	KeyValue []KV
	// RowGroups lists the row groups in file order.
	RowGroups []ParquetRowGroup
	// Columns lists the leaf columns (column chunks) in schema order.
	Columns []ParquetColumn
}

// ParquetRowGroup is one row group of a Parquet file.
type ParquetRowGroup struct {
	Rows int64 // num_rows
	// CompressedBytes is the sum of its column chunks' total_compressed_size:
	// the bytes of the file read to read it whole.
	CompressedBytes int64
	// UncompressedBytes is its total_byte_size (uncompressed data).
	UncompressedBytes int64
	// Chunks are its column chunks, one per leaf column in the order of
	// ParquetMeta.Columns, or nil when the source does not say them: what
	// File.ColumnBytes and File.ColumnStats answer from.
	Chunks []ParquetChunk
}

// ParquetChunk is what a row group's footer says of one column chunk
// (ColumnMetaData).
type ParquetChunk struct {
	// CompressedBytes is its total_compressed_size: the bytes of the file
	// read to read it.
	CompressedBytes int64
	// Stats are its statistics, nil when the footer has none.
	Stats *ColumnStats
}

// ColumnStats are a column chunk's statistics (Parquet's Statistics):
// what a filter uses to skip a row group without reading it. They are the
// writer's word: a file that lies about them makes a filter that trusts
// them skip rows it should have kept.
type ColumnStats struct {
	// NullCount is null_count, -1 when not given.
	NullCount int64
	// Min and Max are min_value and max_value as values of the column's
	// Arrow type (of its dictionary's values for a dictionary-encoded
	// one), nil when not given: int64 for signed integers, dates, times,
	// timestamps and durations (in the type's unit), uint64 for unsigned
	// integers, float64 for floating point, string for strings, []byte
	// for binaries, bool for booleans. Other types (decimals, nested
	// types) have none. File.ColumnStats drops values of another Go type,
	// a NaN, and a Min above Max.
	Min, Max any
	// Unit, when not "", says that Min and Max (int64) are in a Parquet
	// unit that may not be the column's: "d" days (DATE), "ms", "us" or
	// "ns" (TIMESTAMP), as a footer read apart from the Arrow schema gives
	// them. File.ColumnStats converts them to a date's or timestamp's own
	// unit (Min rounded down, Max up) and drops them for other columns.
	Unit string
}

// ParquetColumn is one leaf column of a Parquet file's schema.
type ParquetColumn struct {
	// Path is its path_in_schema, the top-level field first.
	Path []string
	// Codecs are the compression codecs of its column chunks, by the
	// Parquet specification's names (UNCOMPRESSED, SNAPPY, GZIP, LZO,
	// BROTLI, LZ4, ZSTD, LZ4_RAW), each once, in order of first use.
	Codecs []string
}

// ParquetSource reads a Parquet file's rows as Arrow IPC. Its methods are
// called from several goroutines at once.
type ParquetSource interface {
	// ReadRows returns rows [offset, offset+limit) of row group rowGroup
	// (0-based, offset relative to the row group) as an Arrow IPC stream:
	// a Schema message then record batches holding those rows in order.
	// columns names the top-level fields to read, by index in the schema,
	// in increasing order (nil: all of them); the stream's schema then
	// holds just those. It stops with ctx's error when ctx is done. An
	// error says why the rows cannot be read (a corrupt page, an
	// unsupported encoding) in words for the user.
	ReadRows(ctx context.Context, rowGroup int, offset, limit int64, columns []int) ([]byte, error)
	// Close releases what the source holds; later reads fail.
	Close() error
}

// ParquetCodecs are the compression codecs a ParquetSource decodes (the
// Parquet specification's CompressionCodec names; the page's hyparquet
// engine and parquet-wasm's full build read all of them). A column whose chunks use another (LZO, the
// deprecated one) shows an error and is never asked of the source.
var ParquetCodecs = []string{"UNCOMPRESSED", "SNAPPY", "GZIP", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"}

// ParquetFacts are what a Parquet file's footer says about the file, as
// the viewer shows it (File.ParquetFacts).
type ParquetFacts struct {
	RowGroups int
	CreatedBy string // "" when absent
	Version   int    // the footer's format version (1 or 2)
	// Compression lists the codecs the column chunks use, each once,
	// in alphabetical order, joined by ", ": "SNAPPY, ZSTD"; "" when the
	// footer names no column.
	Compression string
	// CompressedBytes and UncompressedBytes sum the row groups'.
	CompressedBytes, UncompressedBytes int64
	// KeyValue is the footer's key_value_metadata in file order, without
	// ARROW:schema (the Arrow schema, base64: File.Schema and
	// File.Metadata hold what it says).
	KeyValue []KV
}

// parquetFile is how a File opened by OpenParquet reads its row windows:
// rows of a row group, through the source, as Arrow IPC.
type parquetFile struct {
	src   ParquetSource
	facts ParquetFacts
	// cols are the top-level fields asked of the source, in schema order
	// (nil: all of them); skip holds the others with why (their codec).
	cols      []int
	skip      map[int]string
	closeOnce sync.Once
	// chunks are the row groups' column chunks (ParquetRowGroup.Chunks),
	// nil for a row group whose source did not say them; leaves are the
	// leaf columns of each top-level field, by index in
	// ParquetMeta.Columns, and nleaves how many the file has; flat says
	// whether a field is a leaf column itself (its path is its name: no
	// struct, list or map).
	chunks  [][]ParquetChunk
	leaves  [][]int
	flat    []bool
	nleaves int
}

// maxParquetRows bounds a Parquet file's rows (the page counts rows in
// JavaScript numbers).
const maxParquetRows = 1 << 53

// OpenParquet opens the Parquet file name of size bytes that src reads,
// whose footer meta describes. Each row group becomes a record batch of the
// File (Format Parquet; NumBatches is the number of row groups, Indexed is
// true and Rows exact at once), read when one of its rows is asked for
// (Load, Cell, Tensor…): whole when its decoded size (UncompressedBytes, or
// 3× CompressedBytes when larger: Arrow IPC often takes that much) is at
// most a quarter of the cache budget and 16 MiB, else by windows of rows of
// about 2 MiB decoded, each a call of src.ReadRows, into the same budgeted
// cache as Arrow files. What src answers derives from the file, so it is
// checked like an Arrow file: its IPC messages, its arrays (a broken column
// shows its error in its cells), its memory within the cache budget, and
// its rows and schema against what was asked (else that window's rows show
// the error).
//
// meta is checked first: its Schema must be an Arrow IPC stream holding a
// schema (it is the File's Schema; Metadata and Fields are described from
// it as for Arrow files), row counts and sizes must be non-negative. A
// column whose chunks use a codec not in ParquetCodecs (LZO) is never
// asked of src: its FieldInfo.Err and its cells say why, the other columns
// display. On success the File owns src (File.Close closes it); on error
// the caller still does. Of opt, Budget is used (SmallFile is not: row
// counts are exact at once).
func OpenParquet(name string, size int64, meta ParquetMeta, src ParquetSource, opt Options) (f *File, err error) {
	defer guard(&err, "reading %s", name)
	if src == nil {
		return nil, fmt.Errorf("%s: no Parquet reader", name)
	}
	budget := opt.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	schema, err := parquetSchema(meta.Schema, budget)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	x := &ipcIndex{size: size, budget: budget, format: Parquet, schema: schema, indexed: true}
	if int64(len(meta.RowGroups)) > x.maxBatches() {
		return nil, fmt.Errorf("%s has %d row groups, more than the %d whose index fits the cache budget", name, len(meta.RowGroups), x.maxBatches())
	}
	facts := ParquetFacts{RowGroups: len(meta.RowGroups), CreatedBy: meta.CreatedBy, Version: meta.Version}
	for i, rg := range meta.RowGroups {
		if rg.Rows < 0 || rg.CompressedBytes < 0 || rg.UncompressedBytes < 0 {
			return nil, fmt.Errorf("%s: row group %d declares %d rows, %d compressed and %d uncompressed bytes", name, i, rg.Rows, rg.CompressedBytes, rg.UncompressedBytes)
		}
		if rg.Rows > maxParquetRows-x.numRows {
			return nil, fmt.Errorf("%s: its row groups declare more than %d rows", name, int64(maxParquetRows))
		}
		if len(rg.Chunks) != 0 && len(rg.Chunks) != len(meta.Columns) {
			return nil, fmt.Errorf("%s: row group %d has %d column chunks for %d leaf columns", name, i, len(rg.Chunks), len(meta.Columns))
		}
		for j, c := range rg.Chunks {
			if c.CompressedBytes < 0 {
				return nil, fmt.Errorf("%s: column chunk %d of row group %d declares %d compressed bytes", name, j, i, c.CompressedBytes)
			}
		}
		x.batches = append(x.batches, batchInfo{length: decodedEstimate(rg), stored: rg.CompressedBytes, rows: rg.Rows, start: x.numRows})
		x.numRows += rg.Rows
		facts.CompressedBytes = addCapped(facts.CompressedBytes, rg.CompressedBytes)
		facts.UncompressedBytes = addCapped(facts.UncompressedBytes, rg.UncompressedBytes)
	}
	for _, kv := range meta.KeyValue {
		if kv.Key != "ARROW:schema" {
			facts.KeyValue = append(facts.KeyValue, kv)
		}
	}
	f = &File{Name: name, Size: size, Format: Parquet, Schema: schema, budget: budget, meter: &meter{}, index: x}
	f.useCache(opt)
	x.warn = f.notes.warn
	f.describe()
	f.pq = &parquetFile{src: src, facts: facts}
	f.pq.codecs(meta.Columns, f)
	f.pq.chunksOf(meta, f.Schema)
	return f, nil
}

// chunksOf keeps the row groups' column chunks and which leaf columns
// belong to which top-level field of schema (by name: the first element
// of their path; a name that two fields share has none).
func (p *parquetFile) chunksOf(meta ParquetMeta, schema *arrow.Schema) {
	p.nleaves = len(meta.Columns)
	for _, rg := range meta.RowGroups {
		p.chunks = append(p.chunks, slices.Clone(rg.Chunks))
	}
	p.leaves = make([][]int, schema.NumFields())
	p.flat = make([]bool, schema.NumFields())
	for j, c := range meta.Columns {
		if len(c.Path) == 0 {
			continue
		}
		if ks := schema.FieldIndices(c.Path[0]); len(ks) == 1 {
			p.leaves[ks[0]] = append(p.leaves[ks[0]], j)
			p.flat[ks[0]] = len(c.Path) == 1 && len(p.leaves[ks[0]]) == 1
		}
	}
}

// columnBytes is File.ColumnBytes for row group i, which b describes, of a
// file of fields fields.
func (p *parquetFile) columnBytes(i int, b batchInfo, cols []int, fields int) int64 {
	if chunks := p.chunks[i]; chunks != nil {
		var n int64
		known := true
		for _, k := range cols {
			known = known && len(p.leaves[k]) > 0
			for _, j := range p.leaves[k] {
				n = addCapped(n, chunks[j].CompressedBytes)
			}
		}
		if known {
			return n
		}
	}
	// Their share of the row group, by leaf columns (or fields).
	part, all := int64(0), int64(p.nleaves)
	for _, k := range cols {
		part += int64(max(1, len(p.leaves[k])))
	}
	if all < part {
		all = int64(max(fields, 1))
		part = int64(len(cols))
	}
	if all == 0 {
		return 0
	}
	return int64(float64(b.stored) * float64(part) / float64(all))
}

// ColumnStats returns the statistics of column col in row group i as the
// Parquet footer says them (ParquetChunk.Stats), for a column of one leaf
// column (no struct, list or map) whose source gave them; ok is false
// otherwise, and for Arrow files. Min and Max are checked against the
// column's type (see ColumnStats).
func (f *File) ColumnStats(i, col int) (s ColumnStats, ok bool) {
	if f.set != nil {
		return f.set.columnStats(i, col)
	}
	if f.pq == nil || i < 0 || i >= len(f.pq.chunks) || col < 0 || col >= f.Schema.NumFields() {
		return s, false
	}
	if !f.pq.flat[col] || f.pq.chunks[i] == nil {
		return s, false
	}
	st := f.pq.chunks[i][f.pq.leaves[col][0]].Stats
	if st == nil {
		return s, false
	}
	s = *st
	b, _, _ := f.index.batchAt(i)
	if s.NullCount < -1 || s.NullCount > b.rows {
		s.NullCount = -1
	}
	statsInUnit(f.Schema.Field(col).Type, &s)
	kind := statsKind(f.Schema.Field(col).Type)
	if !statsValue(kind, s.Min) || !statsValue(kind, s.Max) || (s.Min != nil && s.Max != nil && statsLess(s.Max, s.Min)) {
		s.Min, s.Max = nil, nil
	}
	return s, true
}

// statsInUnit converts s.Min and s.Max from s.Unit to the unit of dt, a
// date or timestamp type (see ColumnStats.Unit); for another type, or
// bounds that do not fit an int64 after the conversion, it drops them.
func statsInUnit(dt arrow.DataType, s *ColumnStats) {
	if s.Unit == "" {
		return
	}
	if ext, ok := dt.(arrow.ExtensionType); ok {
		dt = ext.StorageType()
	}
	if d, ok := dt.(*arrow.DictionaryType); ok {
		dt = d.ValueType
	}
	ns := map[string]int64{"d": 86_400_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}
	from := ns[s.Unit]
	var to int64
	switch t := dt.(type) {
	case *arrow.Date32Type:
		to = ns["d"]
	case *arrow.Date64Type:
		to = ns["ms"]
	case *arrow.TimestampType:
		to = map[arrow.TimeUnit]int64{arrow.Second: 1_000_000_000, arrow.Millisecond: ns["ms"], arrow.Microsecond: ns["us"], arrow.Nanosecond: 1}[t.Unit]
	}
	lo, ok1 := s.Min.(int64)
	hi, ok2 := s.Max.(int64)
	s.Unit = ""
	if from == 0 || to == 0 || !ok1 || !ok2 {
		s.Min, s.Max = nil, nil
		return
	}
	if from >= to {
		k := from / to
		if lo < math.MinInt64/k || hi > math.MaxInt64/k {
			s.Min, s.Max = nil, nil
			return
		}
		s.Min, s.Max = lo*k, hi*k
		return
	}
	k := to / from
	floor := lo / k
	if lo%k != 0 && lo < 0 {
		floor--
	}
	ceil := hi / k
	if hi%k != 0 && hi > 0 {
		ceil++
	}
	s.Min, s.Max = floor, ceil
}

// statsKind is the Go type of ColumnStats.Min and Max for a column of type
// dt: a value of it, or nil for a type that has none.
func statsKind(dt arrow.DataType) any {
	if ext, ok := dt.(arrow.ExtensionType); ok {
		dt = ext.StorageType()
	}
	if d, ok := dt.(*arrow.DictionaryType); ok {
		return statsKind(d.ValueType)
	}
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.DATE64,
		arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return int64(0)
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return uint64(0)
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return float64(0)
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return ""
	case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY:
		return []byte(nil)
	case arrow.BOOL:
		return false
	}
	return nil
}

// statsValue reports whether v is nil or a value of kind's Go type (not a
// NaN).
func statsValue(kind, v any) bool {
	is := func(want any) bool { return reflect.TypeOf(kind) == reflect.TypeOf(want) }
	switch v := v.(type) {
	case nil:
		return true
	case float64:
		return is(v) && !math.IsNaN(v)
	case int64, uint64, string, []byte, bool:
		return is(v)
	}
	return false
}

// statsLess reports whether a < b, two values of the same kind (false
// before true).
func statsLess(a, b any) bool {
	switch a := a.(type) {
	case int64:
		return a < b.(int64)
	case uint64:
		return a < b.(uint64)
	case float64:
		return a < b.(float64)
	case string:
		return a < b.(string)
	case []byte:
		return bytes.Compare(a, b.([]byte)) < 0
	case bool:
		return !a && b.(bool)
	}
	return false
}

// parquetSchema reads a ParquetMeta's Schema: an Arrow IPC stream whose
// first message is the schema, read with OpenReader's checks.
func parquetSchema(b []byte, budget int64) (*arrow.Schema, error) {
	if len(b) == 0 {
		return nil, errors.New("the Parquet reader gave no Arrow schema")
	}
	if len(b) > maxMetadata {
		return nil, fmt.Errorf("its Arrow schema takes %s, more than the %s tensorview reads", HumanBytes(int64(len(b))), HumanBytes(maxMetadata))
	}
	// Bounded by maxMetadata, not by the cache budget: it is held once.
	s, err := OpenReader("the Arrow schema", bytes.NewReader(b), int64(len(b)), Options{Budget: max(budget, 2*maxMetadata), SmallFile: -1})
	if err != nil {
		return nil, fmt.Errorf("cannot read its Arrow schema: %w", err)
	}
	defer s.Close()
	if s.Format != IPCStream {
		return nil, fmt.Errorf("its Arrow schema is an %s, not an Arrow IPC stream", s.Format)
	}
	return s.Schema, nil
}

// decodedEstimate is about how many bytes row group rg takes as Arrow
// arrays: its uncompressed bytes, or three times its compressed bytes when
// that is more (Arrow IPC often takes that much: dictionary and
// run-length encodings expand), within an int64.
func decodedEstimate(rg ParquetRowGroup) int64 {
	c := rg.CompressedBytes
	if c > (1<<62)/3 {
		return 1 << 62
	}
	return max(rg.UncompressedBytes, 3*c)
}

func addCapped(a, b int64) int64 {
	if a > (1<<62)-b {
		return 1 << 62
	}
	return a + b
}

// codecs notes the codecs of the leaf columns: the summary of them in
// facts, and the top-level fields of f whose chunks use a codec not in
// ParquetCodecs, which get that as their error and are not asked for.
func (p *parquetFile) codecs(columns []ParquetColumn, f *File) {
	var used []string
	for _, c := range columns {
		for _, codec := range c.Codecs {
			codec = truncate(codec, 40)
			if !slices.Contains(used, codec) {
				used = append(used, codec)
			}
			if slices.Contains(ParquetCodecs, codec) || len(c.Path) == 0 {
				continue
			}
			for k, fld := range f.Schema.Fields() {
				if fld.Name != c.Path[0] || p.skip[k] != "" {
					continue
				}
				msg := fmt.Sprintf("column %q is compressed with %s, which tensorview's Parquet readers (hyparquet, parquet-wasm) cannot decode", truncate(fld.Name, maxNameLen), codec)
				if len(c.Path) > 1 {
					msg = fmt.Sprintf("column %q (its leaf column %s) is compressed with %s, which tensorview's Parquet readers (hyparquet, parquet-wasm) cannot decode",
						truncate(fld.Name, maxNameLen), truncate(strings.Join(c.Path, "."), maxNameLen), codec)
				}
				if p.skip == nil {
					p.skip = map[int]string{}
				}
				p.skip[k] = msg
				if f.fields[k].Err != "" {
					msg += "; " + f.fields[k].Err
				}
				f.fields[k].Err = msg
			}
		}
	}
	slices.Sort(used)
	p.facts.Compression = strings.Join(used, ", ")
	if len(p.skip) > 0 {
		p.cols = []int{}
		for k := range f.Schema.NumFields() {
			if p.skip[k] == "" {
				p.cols = append(p.cols, k)
			}
		}
	}
}

// asked returns the indices of the fields asked of the source.
func (p *parquetFile) asked(n int) []int {
	if p.cols != nil {
		return p.cols
	}
	all := make([]int, n)
	for k := range all {
		all[k] = k
	}
	return all
}

// ParquetFacts returns what the footer of a file opened by OpenParquet
// says (a copy); ok is false for other files.
func (f *File) ParquetFacts() (facts ParquetFacts, ok bool) {
	if f.pq == nil {
		return facts, false
	}
	facts = f.pq.facts
	facts.KeyValue = slices.Clone(facts.KeyValue)
	return facts, true
}

// readParquet reads rows [s, s+n) of row group i through the source and
// returns them as a row window of every column of the schema, with the bytes it
// holds. The answer is decoded and checked as an IPC stream read from the
// file would be; columns not asked for (their codec) are nulls whose cells
// show why.
func (f *File) readParquet(ctx context.Context, i int, s, n int64) (c *decoded, size int64, err error) {
	b, _, ok := f.index.batchAt(i)
	if !ok {
		return nil, 0, fmt.Errorf("no row group %d", i)
	}
	what := fmt.Sprintf("row group %d", i)
	if s != 0 || n != b.rows {
		what = fmt.Sprintf("rows %d..%d of row group %d", s, s+n, i)
	}
	if f.meter.isClosed() {
		return nil, 0, fmt.Errorf("cannot read %s: %w", what, errClosed)
	}
	mem := newBudgetAllocator(f.budget, f.Size, what)
	defer func() {
		if r := recover(); r != nil {
			ref, isRef := r.(*refusal)
			if !isRef {
				panic(r)
			}
			c, size, err = nil, 0, ref
		}
	}()
	p := f.pq
	asked := p.asked(f.Schema.NumFields())
	cols := make([]arrow.Array, f.Schema.NumFields())
	colErr := make([]string, len(cols))
	if len(asked) > 0 && n > 0 {
		share := b.stored // of the file, as WindowBytes says
		if n != b.rows {
			share = b.stored / b.rows * n
		}
		got, errs, err := f.askParquet(ctx, i, s, n, p.cols, asked, share, what, mem)
		if err != nil {
			return nil, 0, err
		}
		for j, k := range asked {
			cols[k] = got[j]
			if errs[j] != "" {
				colErr[k] = fmt.Sprintf("%s: %s", what, errs[j])
				f.notes.columnErr(k, colErr[k])
			}
		}
	}
	for k, fld := range f.Schema.Fields() {
		if cols[k] == nil {
			cols[k] = nullarray.Make(mem, fld.Type, int(n))
			if colErr[k] == "" {
				colErr[k] = p.skip[k]
			}
		}
	}
	if ref := mem.Err(); ref != nil { // refused inside arrow-go, which may have said so in other words
		return nil, 0, ref
	}
	rec := array.NewRecordBatch(f.Schema, cols, n)
	if s != 0 || n != b.rows {
		f.windowReads.Add(1)
	}
	return &decoded{rec: rec, colErr: colErr}, recordBytes(rec), nil
}

// askParquet asks the source for rows [s, s+n) of the fields cols (nil:
// all; asked lists them) of row group i, about share bytes of the file,
// for what, and decodes its answer within mem (decodeAnswer). A big read
// (share at least BigRead) for a ctx that can be cancelled shows in
// Reading, as LoadContext's big IPC reads do.
func (f *File) askParquet(ctx context.Context, i int, s, n int64, cols, asked []int, share int64, what string, mem *budgetAllocator) ([]arrow.Array, []string, error) {
	if ctx.Done() != nil && share >= BigRead {
		op := &bigOp{total: share}
		f.meter.begin(op)
		defer f.meter.end(op)
	}
	data, err := f.pq.src.ReadRows(ctx, i, s, n, cols)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, nil, fmt.Errorf("%s: %w", what, ErrCanceled)
	case f.meter.isClosed():
		return nil, nil, fmt.Errorf("cannot read %s: %w", what, errClosed)
	case err != nil:
		return nil, nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	return f.decodeAnswer(ctx, what, data, n, asked, mem)
}

// parquetColumns reads the fields cols of row group i through the source
// (ReadColumns): a column whose codec is not read, or that the answer
// holds broken, is a *ColumnError.
func (f *File) parquetColumns(ctx context.Context, i int, cols []int) (arrow.RecordBatch, error) {
	b, _, ok := f.index.batchAt(i)
	if !ok {
		return nil, fmt.Errorf("no row group %d", i)
	}
	for _, k := range cols {
		if msg := f.pq.skip[k]; msg != "" {
			return nil, &ColumnError{Batch: i, Column: k, Name: f.Schema.Field(k).Name, Err: msg}
		}
	}
	if len(cols) == 0 || b.rows == 0 {
		return emptyColumns(f.projected(cols), b.rows), nil
	}
	what := f.columnsWhat(fmt.Sprintf("row group %d", i), cols)
	mem := newBudgetAllocator(f.budget, f.Size, what)
	got, errs, err := f.askParquet(ctx, i, 0, b.rows, cols, cols, f.pq.columnBytes(i, b, cols, f.Schema.NumFields()), what, mem)
	if ref := mem.Err(); ref != nil {
		return nil, ref
	}
	if err != nil {
		return nil, err
	}
	for j, k := range cols {
		if errs[j] != "" {
			f.notes.columnErr(k, fmt.Sprintf("row group %d: %s", i, errs[j]))
			return nil, &ColumnError{Batch: i, Column: k, Name: f.Schema.Field(k).Name, Err: errs[j]}
		}
	}
	// decodeAnswer checked the answer's types and validated its arrays.
	return array.NewRecordBatch(f.projected(cols), got, b.rows), nil
}

// emptyColumns is a record batch of schema (no fields, or no rows) with
// rows rows.
func emptyColumns(schema *arrow.Schema, rows int64) arrow.RecordBatch {
	cols := make([]arrow.Array, schema.NumFields())
	for k, fld := range schema.Fields() {
		cols[k] = nullarray.Make(memory.DefaultAllocator, fld.Type, 0)
	}
	return array.NewRecordBatch(schema, cols, rows)
}

// decodeAnswer decodes the source's answer for what, an IPC stream of the
// fields asked (indices into the schema) holding n rows, with OpenReader's
// checks; a record batch's column that validation finds broken is nil
// with its error. Several record batches are concatenated, within mem.
func (f *File) decodeAnswer(ctx context.Context, what string, data []byte, n int64, asked []int, mem *budgetAllocator) ([]arrow.Array, []string, error) {
	if int64(len(data)) > f.budget {
		return nil, nil, &refusal{want: int64(len(data)), limit: f.budget, size: f.Size, what: what, read: true}
	}
	in, err := OpenReader(what, bytes.NewReader(data), int64(len(data)), Options{Budget: f.budget, SmallFile: -1})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: the Parquet reader's answer cannot be read: %w", what, err)
	}
	defer in.Close()
	if in.Format != IPCStream {
		return nil, nil, fmt.Errorf("%s: the Parquet reader answered an %s, not an Arrow IPC stream", what, in.Format)
	}
	if err := f.checkAnswerSchema(in.Schema, asked); err != nil {
		return nil, nil, fmt.Errorf("%s: the Parquet reader answered %w", what, err)
	}
	if err := in.Index(ctx, nil); err != nil {
		return nil, nil, fmt.Errorf("%s: the Parquet reader's answer cannot be read: %w", what, err)
	}
	var parts []*decoded
	var rows, used int64
	for k := range in.NumBatches() {
		c, err := in.batch(ctx, k)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: the Parquet reader's answer: %w", what, err)
		}
		rows += c.rec.NumRows()
		if used += recordBytes(c.rec); used > f.budget {
			return nil, nil, &refusal{want: used, limit: f.budget, size: f.Size, what: what, read: true}
		}
		parts = append(parts, c)
	}
	if rows != n {
		return nil, nil, fmt.Errorf("%s: the Parquet reader answered %d rows, not %d", what, rows, n)
	}
	cols := make([]arrow.Array, len(asked))
	errs := make([]string, len(asked))
	for j := range asked {
		arrs := make([]arrow.Array, 0, len(parts))
		for b, c := range parts {
			if e := c.colErr[j]; e != "" {
				if len(parts) > 1 {
					e = fmt.Sprintf("record batch %d of %d the Parquet reader answered: %s", b, len(parts), strings.TrimPrefix(e, fmt.Sprintf("record batch %d: ", b)))
				} else {
					e = strings.TrimPrefix(e, "record batch 0: ")
				}
				errs[j] = e
				break
			}
			arrs = append(arrs, c.rec.Column(j))
		}
		switch {
		case errs[j] != "":
			// nil: a column of nulls whose cells show errs[j]
		case len(arrs) == 1:
			cols[j] = arrs[0]
		default:
			arr, err := array.Concatenate(arrs, mem)
			if err != nil {
				errs[j] = fmt.Sprintf("cannot join the %d record batches the Parquet reader answered: %v", len(arrs), err)
				continue
			}
			settle(arr)
			cols[j] = arr
		}
	}
	for j, k := range asked {
		if cols[j] == nil {
			cols[j] = nullarray.Make(mem, f.Schema.Field(k).Type, int(n))
		}
	}
	return cols, errs, nil
}

// checkAnswerSchema checks that an answer's schema holds the fields asked
// for, by name and type, in order.
func (f *File) checkAnswerSchema(got *arrow.Schema, asked []int) error {
	names := func(fields []arrow.Field) string {
		parts := make([]string, len(fields))
		for k, fld := range fields {
			parts[k] = fmt.Sprintf("%q: %s", truncate(fld.Name, 40), truncate(fld.Type.String(), 80))
		}
		return truncate(strings.Join(parts, ", "), 400)
	}
	want := make([]arrow.Field, len(asked))
	for j, k := range asked {
		want[j] = f.Schema.Field(k)
	}
	ok := got.NumFields() == len(want)
	for j := 0; ok && j < len(want); j++ {
		g := got.Field(j)
		ok = g.Name == want[j].Name && arrow.TypeEqual(g.Type, want[j].Type)
	}
	if !ok {
		return fmt.Errorf("columns {%s}, not the ones asked for {%s}", names(got.Fields()), names(want))
	}
	return nil
}

// closeSource closes the source once.
func (p *parquetFile) closeSource() {
	p.closeOnce.Do(func() { p.src.Close() })
}
