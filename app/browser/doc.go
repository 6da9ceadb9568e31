// Package browser is tensorview's file I/O in the browser: the bytes of a
// Blob, of a file by URL and of a Parquet file, each behind a Go interface
// the decoder takes (io.ReaderAt, remote.Fetcher, decode.ParquetSource).
// It knows nothing of the page: app/ui decides what to open and shows it.
//
// Entry points:
//
//   - NewBlobReader: a Blob (a dropped, picked, posted or downloaded file)
//     as an io.ReaderAt, reading only the bytes asked for
//     (Blob.slice().arrayBuffer()); NewBlob makes a Blob of bytes.
//   - Fetcher: remote.Fetcher over the browser's fetch (one GET with a
//     Range header, the body streamed), telling a CORS refusal, being
//     offline and a network error apart. app/remote is the pure-Go HTTP
//     Range logic above it. Download reads a response whole into a Blob
//     (a server that ignores Range), up to a limit (ErrTooBig).
//   - OpenParquet: a Parquet file opened in parquet-wasm's worker
//     (web/parquet-worker.js) as a decode.File whose ParquetSource asks the
//     worker for row groups as Arrow IPC; the worker is restarted after a
//     trap, a hang or too much memory.
//   - Then: a promise's value or its rejection, to Go callbacks.
//
// It is written against go-app's app.Value, so it compiles natively (app/ui's
// native tests link it) but works only in a browser (GOOS=js GOARCH=wasm).
// Every read blocks its goroutine until the browser answers: call them from
// a goroutine of their own (go-app's ctx.Async), never from a JavaScript
// callback, which would deadlock. The pure-Go parts (the worker's footer,
// the read guard) have native tests; the Blob reader's run in Node.js
// (blob_wasm_test.go: GOOS=js GOARCH=wasm go test ./app/browser).
package browser
