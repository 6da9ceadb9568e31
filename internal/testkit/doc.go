// Package testkit is what the tests of several packages share: where the
// files they read are (the interop corpus of Arrow and Parquet files
// written by other implementations, shared/interop beside the repository's
// directory, see the README; and the repository's testdata: corpus.go),
// and what tells a bug from an error in what the decode path returns
// (panics.go), IPC files written by arrow-go (ipc.go), the expected
// values of testdata/compare.arrow (compare.go), the mask
// fixtures' (masks.go), and JSON files of expected values in testdata
// (json.go). Only tests import it.
package testkit
