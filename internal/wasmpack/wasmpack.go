// Package wasmpack rewrites a WebAssembly module's data section for
// compression: Go's linker starts a new data segment after every run of
// more than 8 zero bytes (smallest raw file; at most 100,000 segments), and
// each segment's header (address, length) is a few bytes that brotli and
// gzip compress badly, while the zeros they save compress to almost
// nothing. Pack joins segments whose gap is at most a given number of
// bytes, writing the gap's zeros: the memory the module starts with is
// byte for byte the same.
//
// Reader, which Pack reads modules with, reads the binary format's bytes,
// LEB128 integers and names; bench/payload reads its sections with it.
package wasmpack

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
)

// Gap is the largest run of zero bytes Pack writes out to join two
// segments: on tensorview's wasm (Go 1.26), 64 gave the smallest brotli 11
// and gzip -9 copies among 8, 16, 32, 64, 128 and unlimited (make size).
const Gap = 64

// Pack returns the module with the active data segments of its data
// section sorted by address and joined where at most gap zero bytes lie
// between them. A module whose data section it does not understand (not an
// active segment of memory 0 at an i32.const address, overlapping
// segments) is returned unchanged with an error.
func Pack(module []byte, gap int) ([]byte, error) {
	if len(module) < 8 || string(module[:4]) != "\x00asm" {
		return module, errors.New("wasmpack: not a wasm module")
	}
	out := append([]byte(nil), module[:8]...)
	r := Reader{B: module, Off: 8}
	packed := -1 // the number of segments written, once the data section is
	for r.Off < len(r.B) {
		start := r.Off
		id := r.Byte()
		n := r.Uleb()
		if r.Err != nil || n > uint64(len(r.B)-r.Off) {
			return module, errors.New("wasmpack: truncated section")
		}
		end := r.Off + int(n)
		switch id {
		case 11:
			segs, err := segments(r.B[r.Off:end])
			if err != nil {
				return module, err
			}
			segs = join(segs, gap)
			body := appendSegments(nil, segs)
			out = append(out, 11)
			out = binary.AppendUvarint(out, uint64(len(body)))
			out = append(out, body...)
			packed = len(segs)
		case 12: // data count: the number of data segments, before the code section
			return module, errors.New("wasmpack: a data count section is not supported")
		default:
			out = append(out, r.B[start:end]...)
		}
		r.Off = end
	}
	if packed < 0 {
		return module, errors.New("wasmpack: no data section")
	}
	return out, nil
}

// segment is an active data segment: the bytes at addr.
type segment struct {
	addr uint32
	data []byte
}

// segments reads a data section's segments.
func segments(sec []byte) ([]segment, error) {
	r := Reader{B: sec}
	count := r.Uleb()
	var segs []segment
	for i := uint64(0); i < count && r.Err == nil; i++ {
		// flags 0 (active, memory 0), i32.const ADDR, end, size, bytes.
		if flags := r.Byte(); flags != 0 {
			return nil, fmt.Errorf("wasmpack: data segment %d: flags %d, not an active segment of memory 0", i, flags)
		}
		if op := r.Byte(); op != 0x41 {
			return nil, fmt.Errorf("wasmpack: data segment %d: offset is not an i32.const", i)
		}
		addr := r.Sleb()
		if r.Byte() != 0x0b {
			return nil, fmt.Errorf("wasmpack: data segment %d: offset is not a constant", i)
		}
		size := r.Uleb()
		if r.Err != nil || addr < 0 || addr > 1<<32-1 || size > uint64(len(r.B)-r.Off) || uint64(addr)+size > 1<<32 {
			return nil, fmt.Errorf("wasmpack: data segment %d: malformed", i)
		}
		segs = append(segs, segment{uint32(addr), r.B[r.Off : r.Off+int(size)]})
		r.Off += int(size)
	}
	if r.Err != nil || r.Off != len(r.B) {
		return nil, errors.New("wasmpack: malformed data section")
	}
	slices.SortStableFunc(segs, func(a, b segment) int { return int(int64(a.addr) - int64(b.addr)) })
	for i := 1; i < len(segs); i++ {
		if prev := segs[i-1]; uint64(prev.addr)+uint64(len(prev.data)) > uint64(segs[i].addr) {
			return nil, fmt.Errorf("wasmpack: data segments at %#x and %#x overlap", prev.addr, segs[i].addr)
		}
	}
	return segs, nil
}

// join joins sorted, disjoint segments at most gap bytes apart.
func join(segs []segment, gap int) []segment {
	var out []segment
	for _, s := range segs {
		if k := len(out) - 1; k >= 0 {
			last := &out[k]
			end := uint64(last.addr) + uint64(len(last.data))
			if uint64(s.addr)-end <= uint64(gap) {
				data := make([]byte, uint64(s.addr)-uint64(last.addr), uint64(s.addr)-uint64(last.addr)+uint64(len(s.data)))
				copy(data, last.data)
				last.data = append(data, s.data...)
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

func appendSegments(b []byte, segs []segment) []byte {
	b = binary.AppendUvarint(b, uint64(len(segs)))
	for _, s := range segs {
		b = append(b, 0, 0x41)
		b = appendSleb(b, int64(s.addr))
		b = append(b, 0x0b)
		b = binary.AppendUvarint(b, uint64(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

// appendSleb appends x as a signed LEB128 (an i32.const's operand; Go's
// linker writes addresses so, so that ones of 2 GiB and more come back as
// they were written).
func appendSleb(b []byte, x int64) []byte {
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if x == 0 && c&0x40 == 0 || x == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// Reader reads the primitives of the WebAssembly binary format
// (WebAssembly Core Specification, "Binary Format", §5.1 and §5.2): bytes,
// LEB128 integers and names, from B at Off. Err is set by the first read
// that runs past the end of B or finds a malformed LEB128; the reads after
// it return zero values and keep that error.
type Reader struct {
	B   []byte
	Off int
	Err error
}

var (
	errEnd  = fmt.Errorf("wasmpack: %w", io.ErrUnexpectedEOF)
	errLong = errors.New("wasmpack: LEB128 too long")
)

func (r *Reader) fail(err error) {
	if r.Err == nil {
		r.Err = err
	}
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.Err != nil || r.Off >= len(r.B) {
		r.fail(errEnd)
		return 0
	}
	c := r.B[r.Off]
	r.Off++
	return c
}

// Uleb reads an unsigned LEB128 integer of at most 64 bits (10 bytes;
// encoding/binary's Uvarint is the same encoding). Past the end of B it
// sets Err to an io.ErrUnexpectedEOF; longer than 10 bytes, or beyond
// 2^64-1, to "LEB128 too long".
func (r *Reader) Uleb() uint64 {
	if r.Err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.B[min(r.Off, len(r.B)):])
	switch {
	case n == 0:
		r.fail(errEnd)
		return 0
	case n < 0:
		r.fail(errLong)
		return 0
	}
	r.Off += n
	return x
}

// Sleb reads a signed LEB128 integer of at most 64 bits (two's complement,
// the sign in bit 6 of the last byte: i32.const and i64.const operands).
// Errors are Uleb's.
func (r *Reader) Sleb() int64 {
	var x int64
	for shift := uint(0); shift < 64; shift += 7 {
		c := r.Byte()
		if r.Err != nil {
			return 0
		}
		x |= int64(c&0x7f) << shift
		if c < 0x80 {
			if c&0x40 != 0 && shift+7 < 64 {
				x |= -1 << (shift + 7)
			}
			return x
		}
	}
	r.fail(errLong)
	return 0
}

// Name reads a name: its length in bytes as an unsigned LEB128, then the
// bytes (UTF-8, returned as they are).
func (r *Reader) Name() string {
	n := r.Uleb()
	if r.Err != nil || r.Off > len(r.B) || n > uint64(len(r.B)-r.Off) {
		r.fail(errEnd)
		return ""
	}
	s := string(r.B[r.Off : r.Off+int(n)])
	r.Off += int(n)
	return s
}
