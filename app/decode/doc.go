// Package decode opens Arrow data (IPC file and stream format, and a lone
// IPC Tensor message) with arrow-go and turns it into what the viewer
// shows: file facts, schema fields and per-cell summaries of tensors. It is
// pure Go (no syscall/js), and every entry point recovers panics from
// arrow-go or tensorext into errors so a bad file can never take the page
// down.
//
// Files are read lazily through an io.ReaderAt (in the browser, slices of
// the dropped File): opening reads the schema and where each record batch
// is; record batches, or windows of rows of large ones, are read when a row
// of theirs is asked for, once whoever asks, and kept in a cache with a
// byte budget, least recently used first out.
//
// Entry points:
//   - Open, OpenReader: open a file (Options: cache budget, small-file
//     size); Sniff names a format from the first bytes.
//   - File: Rows, NumBatches, Indexed, Index (the rest of the index, with
//     progress), Locate, Chunk, ChunkBytes, Loaded, Load, LoadContext,
//     Reading (the big reads under way), Batch, Cell, Tensor, CacheBytes,
//     Fields, Warnings, AddWarning, Close. Its methods are safe for
//     concurrent use.
//   - Summarize, ValuesText, Truncate, HumanBytes: formatting (shapes:
//     tensorext.FormatShape, JoinShape).
//   - ErrTooLarge, ErrCanceled, ErrPanic: what errors wrap.
//
// Its parts, unexported:
//   - ipcIndex (index.go, footer.go, stream.go, message.go, ipcmsg.go,
//     layout.go, legacy.go, tensormsg.go): the IPC file's footer or the
//     stream's messages, read and checked (flatbuffers, body layouts)
//     before arrow-go sees them; where each record batch is and its row
//     count, estimated from the bytes until its header is read. The
//     flatbuffer verification lives in internal/ipcverify (shared with
//     tensorext): ipcverify.Footer and ipcverify.Message for footers and
//     Schema, DictionaryBatch and RecordBatch messages, ipcverify.Table
//     for tensormsg.go's Tensor messages.
//   - batchCache (cache.go, lru.go): decoded chunks within the budget, each
//     loaded once; per chunk a loading, failed or cancelled state.
//   - decoding (batch.go, window.go, alloc.go): a record batch with
//     arrow-go within the budget (budgetAllocator), or a window of its rows
//     read from its buffers.
//   - reading (meter.go, ends.go): the reader under everything, with the
//     file's ends cached and big reads metered and stoppable.
//   - cell formatting (cells.go, fields.go): Cell, TensorCell, Field.
//   - notes (notes.go): warnings and column errors, handed out as copies.
package decode
