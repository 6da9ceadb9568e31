package turtle

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/tensorview/tensorview/internal/flatbuf"
	"github.com/tensorview/tensorview/internal/ipcverify"
)

// Arrow IPC message framing, read without decoding record batches (Arrow
// columnar format, "Serialization and Interprocess Communication (IPC)" ›
// "Encapsulated message format"): each message is
//
//	0xFFFFFFFF, int32 metadata size, flatbuffer Message (padded), body
//
// or, before Arrow 0.15, the same without the 0xFFFFFFFF continuation marker.
// The end of a stream is 0xFFFFFFFF 0x00000000 (legacy: 0x00000000). An IPC
// file is "ARROW1", two bytes of padding, a stream, the footer, the int32
// footer size and "ARROW1". arrow.turtle uses this to re-frame a row's value
// under its declared schema (Array.Stream) and to check the lengths a
// value declares before arrow-go allocates them: message and body sizes
// against the bytes present, every flatbuffer (internal/ipcverify), and the
// uncompressed sizes of compressed buffers.

// Message header types (Message.fbs, union MessageHeader).
const (
	msgSchema          = 1
	msgDictionaryBatch = 2
	msgRecordBatch     = 3
	msgTensor          = 4
	msgSparseTensor    = 5
)

var msgKindNames = [...]string{"NONE", "Schema", "DictionaryBatch", "RecordBatch", "Tensor", "SparseTensor"}

func msgKindName(k byte) string {
	if int(k) < len(msgKindNames) {
		return msgKindNames[k]
	}
	return fmt.Sprintf("unknown (%d)", k)
}

// ipcMessage is one message of a stream: its header type, its flatbuffer
// metadata (without the length prefix) and its body, both sub-slices of the
// input.
type ipcMessage struct {
	kind byte
	meta []byte
	body []byte
}

var (
	ipcMagic = []byte("ARROW1")
	ipcEOS   = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0}
)

// maxDecompressed bounds the sum of the uncompressed sizes that a compressed
// record batch (or dictionary batch) may declare: arrow-go allocates each
// decompressed buffer at its declared size before reading it.
const maxDecompressed = 1 << 31

// eachIPCMessage calls fn with each message of an IPC stream (or of the
// stream inside an IPC file), up to the end-of-stream marker or the end of
// b; bytes after the marker are ignored, as stream readers do. Every length
// is checked against the bytes present, so a hostile length is an error,
// never an allocation. It stops at fn's first error and returns it.
func eachIPCMessage(b []byte, fn func(ipcMessage) error) error {
	b, err := ipcFileMessages(b)
	if err != nil {
		return err
	}
	for p := 0; p < len(b); {
		if len(b)-p < 4 {
			return fmt.Errorf("IPC message at byte %d is truncated", p)
		}
		start := p
		w := binary.LittleEndian.Uint32(b[p:])
		p += 4
		var size int64
		switch w {
		case 0: // legacy end of stream
			return nil
		case 0xFFFFFFFF:
			if len(b)-p < 4 {
				return fmt.Errorf("IPC message at byte %d is truncated", start)
			}
			size = int64(int32(binary.LittleEndian.Uint32(b[p:])))
			p += 4
			if size == 0 {
				return nil
			}
		default: // legacy framing (before Arrow 0.15): no continuation marker
			size = int64(int32(w))
		}
		if size < 0 || size > int64(len(b)-p) {
			return fmt.Errorf("IPC message at byte %d declares %d bytes of metadata, %d remain", start, size, len(b)-p)
		}
		meta := b[p : p+int(size)]
		p += int(size)
		// Verified before anything reads it: arrow-go trusts flatbuffer
		// vector lengths and would allocate by them.
		if err := ipcverify.Message(meta); err != nil {
			return fmt.Errorf("IPC message at byte %d: %v", start, err)
		}
		kind, bodyLen, err := parseMessage(meta)
		if err != nil {
			return fmt.Errorf("IPC message at byte %d: %v", start, err)
		}
		if bodyLen < 0 || bodyLen > int64(len(b)-p) {
			return fmt.Errorf("IPC message at byte %d declares a body of %d bytes, %d remain", start, bodyLen, len(b)-p)
		}
		body := b[p : p+int(bodyLen)]
		p += int(bodyLen)
		if err := checkCompressed(kind, meta, body); err != nil {
			return fmt.Errorf("IPC message at byte %d: %v", start, err)
		}
		if err := fn(ipcMessage{kind: kind, meta: meta, body: body}); err != nil {
			return err
		}
	}
	return nil
}

// ipcFileMessages returns the messages of b: b itself when it is an IPC
// stream, else the bytes between an IPC file's leading magic and its
// footer (the footer's length is the 4 bytes before the closing magic),
// or an error when the closing magic or the footer's length is wrong.
func ipcFileMessages(b []byte) ([]byte, error) {
	if !bytes.HasPrefix(b, ipcMagic) {
		return b, nil
	}
	n := len(b)
	if n < 8+10 || !bytes.Equal(b[n-6:], ipcMagic) {
		return nil, fmt.Errorf("IPC file of %d bytes has no closing magic", n)
	}
	fl := int64(int32(binary.LittleEndian.Uint32(b[n-10:])))
	if fl < 0 || fl > int64(n-8-10) {
		return nil, fmt.Errorf("IPC file footer size %d is out of range", fl)
	}
	return b[8 : n-10-int(fl)], nil
}

// appendFramed appends m with the current framing: the continuation marker,
// the metadata size, the metadata zero-padded to a multiple of 8 bytes (so
// that the body starts 8-byte aligned in the output), then the body.
func appendFramed(dst []byte, m ipcMessage) []byte {
	pad := (8 - len(m.meta)%8) % 8
	dst = append(dst, 0xFF, 0xFF, 0xFF, 0xFF)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(m.meta)+pad))
	dst = append(dst, m.meta...)
	dst = append(dst, make([]byte, pad)...)
	return append(dst, m.body...)
}

// parseMessage reads a flatbuffer Message's header type and body length
// (Message.fbs: version, header_type, header, bodyLength, custom_metadata).
func parseMessage(meta []byte) (kind byte, bodyLen int64, err error) {
	root, err := flatbuf.Root(meta)
	if err != nil {
		return 0, 0, err
	}
	k, err := root.Uint8(1)
	if err != nil {
		return 0, 0, err
	}
	if bodyLen, err = root.Int64(3); err != nil {
		return 0, 0, err
	}
	return byte(k), bodyLen, nil
}

// checkCompressed bounds what arrow-go will allocate to decompress a record
// batch or dictionary batch: each compressed buffer starts with its
// uncompressed size as an int64 (-1: stored uncompressed), and their sum must
// not exceed maxDecompressed (Message.fbs, BodyCompression).
func checkCompressed(kind byte, meta, body []byte) error {
	if kind != msgRecordBatch && kind != msgDictionaryBatch {
		return nil
	}
	root, err := flatbuf.Root(meta)
	if err != nil {
		return err
	}
	rb, ok, err := root.TableField(2)
	if !ok || err != nil {
		return err
	}
	if kind == msgDictionaryBatch { // DictionaryBatch: id, data (RecordBatch), isDelta
		if rb, ok, err = rb.TableField(1); !ok || err != nil {
			return err
		}
	}
	if _, ok, err := rb.Ref(3); !ok || err != nil { // compression
		return err
	}
	start, n, err := rb.Vector(2, 16) // buffers: [Buffer{offset: long, length: long}]
	if err != nil {
		return err
	}
	var total int64
	for k := 0; k < n; k++ {
		e := start + 16*k
		off := int64(binary.LittleEndian.Uint64(meta[e:]))
		length := int64(binary.LittleEndian.Uint64(meta[e+8:]))
		if length == 0 {
			continue
		}
		if off < 0 || length < 8 || off > int64(len(body)) || length > int64(len(body))-off {
			return fmt.Errorf("compressed buffer %d (offset %d, length %d) is outside the %d-byte body", k, off, length, len(body))
		}
		size := int64(binary.LittleEndian.Uint64(body[off:]))
		if size == -1 {
			continue
		}
		if size < 0 || size > math.MaxInt64-total || total+size > maxDecompressed {
			return fmt.Errorf("compressed buffers declare more than %d uncompressed bytes", int64(maxDecompressed))
		}
		total += size
	}
	return nil
}
