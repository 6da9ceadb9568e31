// Package summary is what the rows table shows of each value of a file
// that package decode opened: a cell (Cell) of text, null, an error, a
// nested record batch (Nested) or a tensor summary (Tensor: shapes, names,
// value range, the values of small tensors, and a preview drawn with
// package raster at the size the table shows it, or for an encoded image
// (Encoded) the size of the thumbnail the page draws). It is the one
// place that turns values into what the grid shows; decode reads them and
// knows nothing of pixels.
//
// It is pure Go (no syscall/js), so it is tested natively.
//
// Entry points:
//   - At, In: the cell of a row and column of a decode.File, its preview
//     at most raster.MaxPreviewSide, or a box of device pixels, a side. They
//     never panic: what goes wrong is the cell's Err.
//   - Summarize, SummarizeIn: the summary of a tensor view.
//   - ValuesText, Truncate (MaxTextLen, InlineValues): text of values, cut.
//
// Its parts: cells.go (Cell, At, In, a value's text), tensor.go (Tensor,
// Summarize, number formatting), images.go (Encoded, image cells),
// nested.go (Nested, opening a nested record batch to count its rows).
//
// Tests: cells_test.go, tensor_test.go, images_test.go and nested_test.go
// test their files; values_interop_test.go (with jsontwin_test.go, a Go
// reader of the Arrow integration JSON format) compares every cell shown
// of the interop corpus with independent readings; fuzz_test.go's FuzzOpen
// runs the viewer's whole path from bytes to cells, previews and the
// inspector engine (its corpus in testdata/fuzz/FuzzOpen).
package summary
