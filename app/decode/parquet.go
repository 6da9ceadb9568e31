package decode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

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
// Parquet specification's CompressionCodec names; parquet-wasm's full
// build reads all of them). A column whose chunks use another (LZO, the
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
	f = &File{Name: name, Size: size, Format: Parquet, Schema: schema, budget: budget, meter: &meter{}, cache: newBatchCache(budget), index: x}
	x.warn = f.notes.warn
	f.describe()
	f.pq = &parquetFile{src: src, facts: facts}
	f.pq.codecs(meta.Columns, f)
	return f, nil
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
				msg := fmt.Sprintf("column %q is compressed with %s, which tensorview's Parquet reader (parquet-wasm) cannot decode", truncate(fld.Name, maxNameLen), codec)
				if len(c.Path) > 1 {
					msg = fmt.Sprintf("column %q (its leaf column %s) is compressed with %s, which tensorview's Parquet reader (parquet-wasm) cannot decode",
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
		if ctx.Done() != nil && share >= BigRead { // shown as LoadContext's big IPC reads are
			op := &bigOp{total: share}
			f.meter.begin(op)
			defer f.meter.end(op)
		}
		data, err := p.src.ReadRows(ctx, i, s, n, p.cols)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, 0, fmt.Errorf("%s: %w", what, ErrCanceled)
		case f.meter.isClosed():
			return nil, 0, fmt.Errorf("cannot read %s: %w", what, errClosed)
		case err != nil:
			return nil, 0, fmt.Errorf("cannot read %s: %w", what, err)
		}
		got, errs, err := f.decodeAnswer(ctx, what, data, n, asked, mem)
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
