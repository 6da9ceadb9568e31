// Package wasmpack rewrites a WebAssembly module's data section for
// compression: Go's linker starts a new data segment after every run of
// more than 8 zero bytes (smallest raw file; at most 100,000 segments), and
// each segment's header (address, length) is a few bytes that brotli and
// gzip compress badly, while the zeros they save compress to almost
// nothing. Pack joins segments whose gap is at most a given number of
// bytes, writing the gap's zeros: the memory the module starts with is
// byte for byte the same.
package wasmpack

import (
	"errors"
	"fmt"
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
	r := reader{b: module, off: 8}
	packed := -1 // the number of segments written, once the data section is
	for r.off < len(r.b) {
		start := r.off
		id := r.byte()
		n := r.uleb()
		if r.err != nil || n > uint64(len(r.b)-r.off) {
			return module, errors.New("wasmpack: truncated section")
		}
		end := r.off + int(n)
		switch id {
		case 11:
			segs, err := segments(r.b[r.off:end])
			if err != nil {
				return module, err
			}
			segs = join(segs, gap)
			body := appendSegments(nil, segs)
			out = append(out, 11)
			out = appendUleb(out, uint64(len(body)))
			out = append(out, body...)
			packed = len(segs)
		case 12: // data count: the number of data segments, before the code section
			return module, errors.New("wasmpack: a data count section is not supported")
		default:
			out = append(out, r.b[start:end]...)
		}
		r.off = end
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
	r := reader{b: sec}
	count := r.uleb()
	var segs []segment
	for i := uint64(0); i < count && r.err == nil; i++ {
		// flags 0 (active, memory 0), i32.const ADDR, end, size, bytes.
		if flags := r.byte(); flags != 0 {
			return nil, fmt.Errorf("wasmpack: data segment %d: flags %d, not an active segment of memory 0", i, flags)
		}
		if op := r.byte(); op != 0x41 {
			return nil, fmt.Errorf("wasmpack: data segment %d: offset is not an i32.const", i)
		}
		addr := r.sleb()
		if r.byte() != 0x0b {
			return nil, fmt.Errorf("wasmpack: data segment %d: offset is not a constant", i)
		}
		size := r.uleb()
		if r.err != nil || addr < 0 || addr > 1<<32-1 || size > uint64(len(r.b)-r.off) || uint64(addr)+size > 1<<32 {
			return nil, fmt.Errorf("wasmpack: data segment %d: malformed", i)
		}
		segs = append(segs, segment{uint32(addr), r.b[r.off : r.off+int(size)]})
		r.off += int(size)
	}
	if r.err != nil || r.off != len(r.b) {
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
	b = appendUleb(b, uint64(len(segs)))
	for _, s := range segs {
		b = append(b, 0, 0x41)
		b = appendSleb(b, int64(s.addr))
		b = append(b, 0x0b)
		b = appendUleb(b, uint64(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

func appendUleb(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
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

// reader reads a wasm module's bytes; err is set once a read runs past the end.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.off >= len(r.b) {
		r.err = errors.New("wasmpack: unexpected end")
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) uleb() uint64 {
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		c := r.byte()
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x
		}
	}
	r.err = errors.New("wasmpack: LEB128 too long")
	return 0
}

func (r *reader) sleb() int64 {
	var x int64
	for shift := uint(0); shift < 64; shift += 7 {
		c := r.byte()
		x |= int64(c&0x7f) << shift
		if c < 0x80 {
			if c&0x40 != 0 && shift+7 < 64 {
				x |= -1 << (shift + 7)
			}
			return x
		}
	}
	r.err = errors.New("wasmpack: LEB128 too long")
	return 0
}
