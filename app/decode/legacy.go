package decode

import (
	"encoding/binary"
	"fmt"
	"strings"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/tensorview/tensorview/internal/flatbuf"
)

// Arrow C++ 0.17 wrote compressed IPC bodies before the format had a field
// for it: the record batch message announces the codec in its custom
// metadata, under legacyKey ("LZ4" or "ZSTD"), and the body is laid out as
// the BodyCompression method BUFFER later made standard (each buffer an
// int64 uncompressed length, -1 for stored raw, then the frame). Arrow C++
// still reads such files (cpp/src/arrow/ipc/reader.cc,
// GetCompressionExperimental); arrow-go ignores the key and would read the
// compressed bytes as values. This package rewrites the message's metadata
// to say the same in the BodyCompression field, the way Arrow 1.0 and later
// write it, and hands arrow-go the rewritten bytes.
const legacyKey = "ARROW:experimental_compression"

// legacyCodec returns the BodyCompression codec (0 LZ4_FRAME, 1 ZSTD) a
// Message flatbuffer (verified) announces in its custom metadata; ok is
// false when it announces none.
func legacyCodec(b []byte) (codec byte, ok bool, err error) {
	root, err := flatbuf.Root(b)
	if err != nil {
		return 0, false, err
	}
	start, n, err := root.Vector(4, 4)
	if err != nil || n == 0 {
		return 0, false, err
	}
	for k := 0; k < n; k++ {
		kv, err := root.VectorTable(start, k)
		if err != nil {
			return 0, false, err
		}
		key, err := kv.String(0)
		if err != nil {
			return 0, false, err
		}
		if key != legacyKey {
			continue
		}
		val, err := kv.String(1)
		if err != nil {
			return 0, false, err
		}
		switch strings.ToUpper(val) {
		case "LZ4", "LZ4_FRAME":
			return 0, true, nil
		case "ZSTD":
			return 1, true, nil
		}
		return 0, false, fmt.Errorf("the file announces the compression %q (Arrow 0.17's %s), which tensorview does not know", val, legacyKey)
	}
	return 0, false, nil
}

// patchLegacy returns meta (an encapsulated message's prefix and metadata,
// as it lies in the file) rewritten to announce its legacy compression in
// the RecordBatch's BodyCompression field instead of custom metadata, at
// the same length, so that the body that follows stays where it was. ok is
// false when the message announces no legacy compression. Dictionary
// batches so compressed are refused with an error.
func patchLegacy(meta []byte) (patched []byte, ok bool, err error) {
	plen, size, err := messagePrefix(meta)
	if err != nil {
		return nil, false, err
	}
	if size < 0 || int64(plen)+size > int64(len(meta)) {
		return nil, false, errFlatbuffer
	}
	fb := meta[plen : int64(plen)+size]
	_, ok, err = legacyCodec(fb)
	if err != nil || !ok {
		return nil, false, err
	}
	l, err := parseBatchLayout(fb)
	if err != nil {
		return nil, false, err
	}
	root, _ := flatbuf.Root(fb)
	if kind, _ := root.Uint8(1); kind != msgRecordBatch {
		return nil, false, fmt.Errorf("a dictionary batch compressed the Arrow 0.17 way (%s), which tensorview does not read", legacyKey)
	}
	bodyLen, err := root.Int64(3)
	if err != nil {
		return nil, false, err
	}
	out := recordBatchMessage(l, bodyLen) // l says the codec in BodyCompression
	if int64(len(out)) > size {
		return nil, false, fmt.Errorf("cannot rewrite Arrow 0.17's compressed record batch header (%d bytes) in its %d", len(out), size)
	}
	patched = make([]byte, len(meta))
	copy(patched, meta[:plen])
	copy(patched[plen:], out)
	if plen == 8 { // keep the continuation marker and the length as they were
		binary.LittleEndian.PutUint32(patched[4:], uint32(size))
	}
	return patched, true, nil
}

// recordBatchMessage builds the Message flatbuffer (without prefix) of a
// record batch laid out as l: its version, row count, field nodes,
// buffers and variadic buffer counts, its BodyCompression when l is
// compressed (l.codec, by BUFFER), and a body of bodyLen bytes.
func recordBatchMessage(l batchLayout, bodyLen int64) []byte {
	b := flatbuffers.NewBuilder(256 + 32*len(l.buffers) + 16*len(l.nodes) + 8*len(l.variadic))
	var compression flatbuffers.UOffsetT
	if l.compressed {
		b.StartObject(2) // BodyCompression
		b.PrependByteSlot(0, l.codec, 255)
		b.PrependByteSlot(1, 0, 255) // BUFFER
		compression = b.EndObject()
	}
	var variadic flatbuffers.UOffsetT
	if len(l.variadic) > 0 {
		b.StartVector(8, len(l.variadic), 8)
		for k := len(l.variadic) - 1; k >= 0; k-- {
			b.PrependInt64(l.variadic[k])
		}
		variadic = b.EndVector(len(l.variadic))
	}
	b.StartVector(16, len(l.buffers), 8)
	for k := len(l.buffers) - 1; k >= 0; k-- { // struct Buffer {offset, length}
		b.PrependInt64(l.buffers[k].length)
		b.PrependInt64(l.buffers[k].offset)
	}
	buffers := b.EndVector(len(l.buffers))
	b.StartVector(16, len(l.nodes), 8)
	for k := len(l.nodes) - 1; k >= 0; k-- { // struct FieldNode {length, null_count}
		b.PrependInt64(l.nodes[k].nulls)
		b.PrependInt64(l.nodes[k].length)
	}
	nodes := b.EndVector(len(l.nodes))
	b.StartObject(5) // RecordBatch
	b.PrependInt64Slot(0, l.rows, -1)
	b.PrependUOffsetTSlot(1, nodes, 0)
	b.PrependUOffsetTSlot(2, buffers, 0)
	b.PrependUOffsetTSlot(3, compression, 0)
	b.PrependUOffsetTSlot(4, variadic, 0)
	batch := b.EndObject()
	b.StartObject(4) // Message
	b.PrependInt16Slot(0, int16(l.version), -1)
	b.PrependByteSlot(1, msgRecordBatch, 0)
	b.PrependUOffsetTSlot(2, batch, 0)
	b.PrependInt64Slot(3, bodyLen, -1)
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}
