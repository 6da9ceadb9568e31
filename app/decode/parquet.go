package decode

import (
	"context"
	"errors"
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

// OpenParquet opens the Parquet file of size bytes that src reads, whose
// footer meta describes: each row group becomes a record batch of the File
// (Format Parquet, row counts exact at once), read through src when one of
// its rows is asked for. It checks meta first: a codec no source reads
// (LZO) makes the columns using it show an error while the others display.
func OpenParquet(name string, size int64, meta ParquetMeta, src ParquetSource, opt Options) (*File, error) {
	return nil, errors.New("not yet")
}
