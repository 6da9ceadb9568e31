// Package decode opens Arrow data (IPC file and stream format, and a lone
// IPC Tensor message) with arrow-go, and Parquet files through a
// ParquetSource that reads them as Arrow IPC: file facts, schema fields,
// record batches and one value at a time, read as arrow-go arrays, tensors,
// encoded images or nested record batches. What the grid shows of a value
// (text, summaries, previews) is package summary's: decode knows nothing
// of pixels. It is pure Go (no syscall/js), and every entry point recovers
// panics from arrow-go or tensorext into errors so a bad file can never
// take the page down.
//
// Files are read lazily through an io.ReaderAt (in the browser, slices of
// the dropped File): opening reads the schema and where each record batch
// is; record batches, or windows of rows of large ones (row windows), are
// read when a row of theirs is asked for, once whoever asks, and kept in a
// cache with a byte budget, least recently used first out.
//
// A Parquet file's row groups are its record batches: OpenParquet takes
// the footer (ParquetMeta) and a ParquetSource (in the page parquet-wasm in
// a worker, package app/browser; natively in tests arrow-go's pqarrow) and reads
// a row group, or a window of its rows, with ParquetSource.ReadRows when
// one of its rows is asked for, into the same cache. What the source
// answers is checked like bytes of an Arrow file.
//
// Operations over the whole file (sort, filter, column statistics) read
// it batch by batch, only the columns they need (File.ReadColumns): of an
// Arrow file the columns' buffers, found by the record batch's body
// layout, and the dictionaries they use; of a Parquet file the columns'
// chunks, through the source. Those reads are not cached: the rows on
// screen stay.
//
// Entry points:
//   - Open, OpenReader: open an Arrow file (Options: cache budget,
//     small-file size); Sniff names a format from the first bytes
//     (Parquet included: OpenReader's error then wraps ErrParquet).
//   - OpenParquet, ParquetSource, ParquetMeta (ParquetRowGroup,
//     ParquetChunk, ColumnStats, ParquetColumn), ParquetCodecs: open a
//     Parquet file; File.ParquetFacts (ParquetFacts): what its footer
//     says.
//   - Scans over the whole file: File.ReadColumns (a record batch's or
//     row group's columns, not cached; ColumnError), ColumnBytes (the
//     bytes they take in the file), BatchRows (a batch's first global row
//     and row count, once Indexed), ValueIn (a value of the columns read,
//     read as its column is: tensors, images), ColumnStats (a Parquet row
//     group's statistics of a column).
//   - File: Rows, NumBatches, Indexed, Index (the rest of the index, with
//     progress), Locate, Window, WindowBytes, WindowState (WindowState:
//     Unread, Loading, Loaded, Failed, Cancelled), Await, Forget, Load,
//     LoadContext, Reading (the big reads under way), Batch, Value, Tensor,
//     Nested, Depth, CacheBytes, Fields (FieldInfo, TensorField),
//     HasPreviews, Warnings, AddWarning, Close. Its methods are safe for
//     concurrent use.
//   - Value: one value (Array, Index, Field) and its readings: Tensor,
//     Encoded, Nested.
//   - HumanBytes: byte counts as text (shapes: tensorext.FormatShape,
//     JoinShape).
//   - ErrTooLarge, ErrCanceled, ErrPanic, ErrParquet: what errors wrap.
//
// Its parts, unexported:
//   - ipcIndex (index.go, footer.go, stream.go, message.go, ipcmsg.go,
//     layout.go, legacy.go, tensormsg.go): the IPC file's footer or the
//     stream's messages, read and checked (flatbuffers, body layouts)
//     before arrow-go sees them; where each record batch is and its row
//     count, estimated from the bytes until its header is read. The
//     flatbuffer verification lives in internal/ipcverify (shared with
//     app/turtle): ipcverify.Footer and ipcverify.Message for footers and
//     Schema, DictionaryBatch and RecordBatch messages; every flatbuffer
//     read here (ipcmsg.go, legacy.go, and tensormsg.go's Tensor messages)
//     goes through internal/flatbuf's checked table reader.
//   - batchCache (cache.go, lru.go): decoded row windows within the budget,
//     each loaded once; per window a WindowState (loading, failed or
//     cancelled kept until loaded or forgotten).
//   - decoding (batch.go, window.go, columns.go, alloc.go): a record
//     batch with arrow-go within the budget (budgetAllocator), a window of
//     its rows read from its buffers, or some of its columns
//     (ReadColumns): their field nodes and buffers (fieldRanges, with
//     layout.go's layoutWalk), the buffers read in runs (coalesce) into a
//     body of their own, a record batch message of them
//     (recordBatchMessage, legacy.go) and a schema message of their fields
//     (schemaMessage), decoded by arrow-go's stream reader with the
//     dictionaries they use.
//   - reading (meter.go, ends.go): the reader under everything, with the
//     file's ends cached (under the meter, a read overlapping them reads
//     only the rest) and big reads metered and stoppable.
//   - values (value.go, fields.go, images.go, nested.go): Value and how each
//     column is read (FieldInfo; tensor readers; image bytes; nested files).
//   - notes (notes.go): warnings and column errors, handed out as copies.
//   - Parquet (parquet.go): the footer checked into an index whose row
//     counts are exact at once (batchInfo.length the decoded estimate,
//     stored the compressed bytes); parquetFile reads a row window through
//     the source (File.readParquet, called by loadBatch and loadWindow) and
//     decodes its answer with OpenReader's checks (decodeAnswer): rows and
//     schema as asked, record batches joined within the budget, columns
//     with an unsupported codec filled with nulls whose values' errors say
//     why. parquetColumns asks the source for some columns of a whole row
//     group (ReadColumns); the row groups' column chunks (sizes,
//     statistics) are kept by top-level field (chunksOf).
//
// Tests: most test the file of their name; cross-cutting ones keep their
// own: concurrent_test.go (the File's methods from many goroutines),
// hostile_test.go (files made to break a reader), interop_test.go (every
// file of the interop corpus opens or says why), fuzzcorpus_test.go
// (tensorext's fuzz corpus), fuzz_parquet_test.go (FuzzOpenParquet),
// values_test.go (files of non-Go writers against their expected values);
// parquetsource_test.go is the Parquet tests' ParquetSource, over pqarrow.
// The viewer's whole path from bytes to cells is fuzzed by package
// summary's FuzzOpen.
package decode
