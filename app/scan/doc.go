// Package scan runs package query's sort, filter and column statistics
// over a whole file: it reads the record batches one after another with
// only the columns the operation needs (Source.ReadColumns), evaluates
// them in slices of rows, and between slices calls Options.Pace, which in
// the browser yields to the event loop, so the page stays responsive
// while a multi-GB file is scanned. It is pure Go (no syscall/js).
//
// Entry points:
//   - Source: what a scan reads (app/ui adapts app/decode's File to it).
//   - Filter (→ query.Matches, the matching rows in file order, reported
//     as they grow through Options.Progress), Sort (→ query.Perm, the
//     order of every row), Stats (→ query.Summary).
//   - Options (Slice, Pace, Progress), Progress, Unread (the rows of
//     batches that could not be read: they do not match, sort last and
//     are left out of statistics; the rest of the file is not lost),
//     Canceled.
//
// Cancel a scan through its context: each returns ctx's error at the next
// slice, Filter with the matches found so far.
package scan
