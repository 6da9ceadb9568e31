package testkit

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// IPCFile writes recs, record batches of schema, as the bytes of an Arrow
// IPC file with arrow-go's writer (the reference reading the tests compare
// with), failing t on an error.
func IPCFile(t testing.TB, schema *arrow.Schema, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
