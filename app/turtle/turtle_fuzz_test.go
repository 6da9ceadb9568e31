package turtle

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/extbase"
)

// FuzzTurtle: arbitrary turtle metadata and value bytes. mode picks the
// storage (utf8/binary, large variants, swapped fields) and, with bit 2,
// takes the metadata's schema from the value bytes themselves, so the
// fuzzer mutates IPC schema bytes too.
//
// The contract: Deserialize never fails or panics and Serialize returns the
// metadata read; Label, Value, Stream and Batch never panic; Stream's output
// is well-framed (the declared Schema message first, continuation markers,
// the first batch's body 8-byte aligned, the end-of-stream marker); a batch
// Batch returns passes extbase.CheckStorage and equals what arrow-go's stream reader
// reads from Stream; Batch allocates through the caller's allocator (64 MiB
// here: beyond it is an error) and releases everything; turtle columns of
// a decoded batch obey the same contract (two more levels).
func FuzzTurtle(f *testing.F) {
	mem := memory.DefaultAllocator
	leafT := mustTurtle(f, leafSchema())
	inner := imageSchema(f, leafT)
	innerT := mustTurtle(f, inner)
	leaf := leafBatch(f, mem, []int32{1, 2, 3}, []float64{0.5, -1, 2.25})
	mid := imageBatch(f, mem, inner, []int{1, 2}, []float32{0.5, 1.25}, []arrow.RecordBatch{leaf, nil})
	leafFull := streamBytes(f, leafSchema(), leaf)
	midFull := streamBytes(f, inner, mid)
	leafHead := streamBytes(f, leafSchema())
	lone := leafFull[len(leafHead)-8 : len(leafFull)-8]
	var zstd, lz4 bytes.Buffer
	for _, c := range []struct {
		buf *bytes.Buffer
		opt ipc.Option
	}{{&zstd, ipc.WithZstd()}, {&lz4, ipc.WithLZ4()}} {
		w := ipc.NewWriter(c.buf, ipc.WithSchema(leafSchema()), c.opt)
		if err := w.Write(leaf); err != nil {
			f.Fatal(err)
		}
		if err := w.Close(); err != nil {
			f.Fatal(err)
		}
	}
	for _, meta := range []string{leafT.Serialize(), innerT.Serialize(), ``, `{}`, `{"schema":"!"}`, `{"schema":4}`,
		`{"schema":"` + base64.RawURLEncoding.EncodeToString(leafHead) + `"}`} {
		for _, v := range [][]byte{leafFull, lone, zstd.Bytes(), lz4.Bytes(), midFull, streamBytes(f, leafSchema(), leaf, leaf), leafHead, {}, {0xFF, 0xFF, 0xFF, 0xFF}} {
			f.Add(meta, v, byte(0))
		}
	}
	f.Add("", leafFull, byte(4))
	f.Add("", midFull, byte(4))
	f.Add(leafT.Serialize(), leafFull, byte(1))
	f.Add(leafT.Serialize(), lone, byte(2))
	leaf.Release()
	mid.Release()

	storages := []arrow.DataType{
		turtleStorage(),
		arrow.StructOf(arrow.Field{Name: "label", Type: arrow.BinaryTypes.LargeString, Nullable: true},
			arrow.Field{Name: "value", Type: arrow.BinaryTypes.LargeBinary, Nullable: true}),
		arrow.StructOf(arrow.Field{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true},
			arrow.Field{Name: "label", Type: arrow.BinaryTypes.String, Nullable: true}),
	}
	f.Fuzz(func(t *testing.T, meta string, value []byte, mode byte) {
		if mode&4 != 0 {
			meta = `{"schema":"` + base64.StdEncoding.EncodeToString(value) + `"}`
		}
		et, err := (&Type{}).Deserialize(storages[int(mode&3)%len(storages)], meta)
		if err != nil {
			t.Fatalf("Deserialize returned %v", err)
		}
		typ := et.(*Type)
		_ = typ.Validate()
		_ = typ.String()
		if typ.Serialize() != meta {
			t.Fatalf("Serialize() = %q, want %q", typ.Serialize(), meta)
		}
		if typ.Schema() == nil && typ.Validate() == nil {
			t.Fatal("no schema and no error")
		}
		checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
		b := NewBuilder(checked, typ)
		if err := b.AppendBytes("l", value); err != nil {
			t.Fatal(err)
		}
		b.AppendNull()
		a := b.NewTurtleArray()
		b.Release()
		if a.Label(0) != "l" || !bytes.Equal(a.Value(0), value) {
			t.Fatalf("Label, Value = %q, %x", a.Label(0), a.Value(0))
		}
		limited := &limitAllocator{Allocator: checked, limit: 64 << 20}
		fuzzTurtleRow(t, limited, a, 0, 3)
		if _, err := a.Batch(limited, 1); err != ErrNull && typ.Schema() != nil {
			t.Fatalf("null row: %v", err)
		}
		a.Release()
		checked.AssertSize(t, 0)
	})
}

// fuzzTurtleRow checks row i of a (see FuzzTurtle), and the turtle columns
// of its batch down to depth more levels.
func fuzzTurtleRow(t *testing.T, mem memory.Allocator, a *Array, i, depth int) {
	s, serr := a.Stream(i)
	rec, berr := a.Batch(mem, i)
	if serr != nil {
		if berr == nil {
			rec.Release()
			t.Fatalf("Stream failed (%v) but Batch did not", serr)
		}
		return
	}
	checkFraming(t, a.Type(), s)
	if berr != nil {
		return
	}
	defer rec.Release()
	for _, col := range rec.Columns() {
		if err := extbase.CheckStorage(col); err != nil {
			t.Fatalf("Batch returned a malformed column: %v", err)
		}
	}
	r, err := ipc.NewReader(bytes.NewReader(s), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatalf("Batch decoded but Stream does not open: %v", err)
	}
	defer r.Release()
	if !r.Next() {
		t.Fatalf("Batch decoded but Stream has no batch: %v", r.Err())
	}
	if !array.RecordEqual(r.RecordBatch(), rec) {
		t.Fatal("Stream read back differs from Batch")
	}
	if depth == 0 {
		return
	}
	for _, col := range rec.Columns() {
		if sub, ok := col.(*Array); ok {
			for j := 0; j < sub.Len() && j < 4; j++ {
				_ = sub.Label(j)
				fuzzTurtleRow(t, mem, sub, j, depth-1)
			}
		}
	}
}

// checkFraming checks that s is a well-framed IPC stream: the declared
// Schema message first, every message with a continuation marker and the
// first body 8-byte aligned, the end-of-stream marker last.
func checkFraming(t *testing.T, typ *Type, s []byte) {
	if !bytes.HasPrefix(s, typ.schemaFrame) || !bytes.HasSuffix(s, ipcEOS) {
		t.Fatal("Stream does not start with the declared schema or end with EOS")
	}
	p, k := 0, 0
	for p < len(s)-8 {
		if binary.LittleEndian.Uint32(s[p:]) != 0xFFFFFFFF {
			t.Fatalf("message %d at byte %d has no continuation marker", k, p)
		}
		size := int(binary.LittleEndian.Uint32(s[p+4:]))
		if size%8 != 0 {
			t.Fatalf("message %d has metadata size %d", k, size)
		}
		_, bodyLen, err := parseMessage(s[p+8 : p+8+size])
		if err != nil {
			t.Fatal(err)
		}
		if k == 1 && (p+8+size)%8 != 0 {
			t.Fatalf("message 1's body starts at byte %d", p+8+size)
		}
		p += 8 + size + int(bodyLen)
		k++
	}
	if p != len(s)-8 || k < 2 {
		t.Fatalf("Stream's messages end at byte %d of %d (%d messages)", p, len(s), k)
	}
}
