package dialect

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A data-only reader for the one kind of pickle Ray Data writes as extension
// metadata: cloudpickle.dumps(shape) for a tuple of ints and
// cloudpickle.dumps(ndim) for one int (ray-project/ray
// python/ray/data/_internal/tensor_extensions/arrow.py @ 18a29212,
// _arrow_ext_serialize_compute; python/ray/air/util/tensor_extensions/arrow.py
// @ 00501e2b, __arrow_ext_serialize__). cloudpickle 2.1.0 on CPython 3.11
// writes, for (28, 28), the same bytes as pickle.dumps((28, 28), protocol=5):
//
//	80 05 95 07 00 00 00 00 00 00 00 4b 1c 4b 1c 86 94 2e
//	PROTO 5, FRAME 7, BININT1 28, BININT1 28, TUPLE2, MEMOIZE, STOP
//
// Longer tuples use MARK … TUPLE, larger ints BININT2, BININT and LONG1, and
// protocol 2 BINPUT in place of MEMOIZE. Unpickling such metadata with
// Python's pickle runs whatever the bytes ask for (CVE-2026-41486,
// GHSA-mw35-8rx3-xf9r); this reader instead walks the opcodes of that
// small, fixed vocabulary and refuses every other one, so it can never
// import, call or build anything.

// maxPickleLen bounds the pickles ReadPickledInts reads.
const maxPickleLen = 4096

// ReadPickledInts reads b, a pickle of protocol 2 to 5 whose value is one
// non-negative int (scalar is true) or a tuple or list of at most 64 of them
// (scalar is false), without executing it. Each int is at most 2^62.
//
// Opcodes read: PROTO (first, version 2..5), FRAME, MARK, BININT1, BININT2,
// BININT, LONG1 (at most 8 bytes), EMPTY_TUPLE, TUPLE1, TUPLE2, TUPLE3,
// TUPLE, EMPTY_LIST, APPEND, APPENDS, MEMOIZE, BINPUT, LONG_BINPUT and STOP
// (the last byte). Any other opcode, GLOBAL, STACK_GLOBAL, REDUCE, BUILD,
// INST, OBJ, NEWOBJ, PERSID and LONG4 among them, is an error naming it, as
// are negative ints, nested tuples, more than 64 elements, a pickle longer
// than 4096 bytes and truncated input.
func ReadPickledInts(b []byte) (ints []int, scalar bool, err error) {
	if len(b) > maxPickleLen {
		return nil, false, fmt.Errorf("pickle: %d bytes, more than the %d read", len(b), maxPickleLen)
	}
	if len(b) < 2 || b[0] != 0x80 {
		return nil, false, errors.New("pickle: does not start with PROTO: not a pickle of protocol 2 or later")
	}
	r := &pickleReader{b: b}
	for r.pos < len(b) {
		at := r.pos
		op := b[r.pos]
		r.pos++
		if at == 0 && op != 0x80 {
			return nil, false, errors.New("pickle: does not start with PROTO")
		}
		done, err := r.step(op, at)
		if err != nil {
			return nil, false, err
		}
		if done {
			return r.result()
		}
	}
	return nil, false, errors.New("pickle: truncated: no STOP")
}

// maxPickleInt is the largest int ReadPickledInts reads, 2^62.
const maxPickleInt = 1 << 62

// pickleItem is one entry of a pickleReader's stack: a MARK, an int, or a
// tuple or list of ints.
type pickleItem struct {
	mark bool
	seq  bool // a tuple or list; else an int
	list bool
	v    int
	vals []int
}

// pickleReader holds the state of ReadPickledInts: the pickle b, the offset
// pos of the next byte to read, and the stack of items read so far.
type pickleReader struct {
	b     []byte
	pos   int
	stack []pickleItem
}

// step reads the arguments of opcode op, found at byte at, and applies it to
// the stack. done is true after STOP.
func (r *pickleReader) step(op byte, at int) (done bool, err error) {
	switch op {
	case 0x80, 0x95: // PROTO, FRAME
		return false, r.header(op, at)
	case '(': // MARK
		return false, r.push(pickleItem{mark: true})
	case 'K', 'M', 'J', 0x8a: // BININT1, BININT2, BININT, LONG1
		v, err := r.readInt(op)
		if err != nil {
			return false, err
		}
		return false, r.push(pickleItem{v: v})
	case ')', ']': // EMPTY_TUPLE, EMPTY_LIST
		return false, r.push(pickleItem{seq: true, list: op == ']', vals: []int{}})
	case 0x85, 0x86, 0x87, 't': // TUPLE1, TUPLE2, TUPLE3, TUPLE
		return false, r.tuple(op)
	case 'a', 'e': // APPEND, APPENDS
		return false, r.appendTo(op)
	case 0x94: // MEMOIZE: the memo is never read (no GET is accepted)
		return false, nil
	case 'q': // BINPUT
		_, err := r.need(1, "BINPUT")
		return false, err
	case 'r': // LONG_BINPUT
		_, err := r.need(4, "LONG_BINPUT")
		return false, err
	case '.': // STOP
		if r.pos != len(r.b) {
			return false, fmt.Errorf("pickle: %d bytes after STOP", len(r.b)-r.pos)
		}
		return true, nil
	default:
		return false, fmt.Errorf("pickle: opcode %s at byte %d is not read: tensorview reads only pickles of ints, never objects or calls", opcodeName(op), at)
	}
}

// result returns the one value left on the stack at STOP: an int (scalar is
// true) or a tuple or list of at most 64 ints.
func (r *pickleReader) result() (ints []int, scalar bool, err error) {
	if len(r.stack) != 1 || r.stack[0].mark {
		return nil, false, fmt.Errorf("pickle: STOP with %d items on the stack, want one value", len(r.stack))
	}
	it := r.stack[0]
	if !it.seq {
		return []int{it.v}, true, nil
	}
	if len(it.vals) > maxNDim {
		return nil, false, fmt.Errorf("pickle: a tuple of %d ints, more than %d", len(it.vals), maxNDim)
	}
	return it.vals, false, nil
}

// header checks PROTO (only as the first opcode, protocol 2 to 5) and FRAME
// (an 8-byte length no longer than the bytes that follow).
func (r *pickleReader) header(op byte, at int) error {
	if op == 0x95 {
		v, err := r.need(8, "FRAME")
		if err != nil {
			return err
		}
		if n := binary.LittleEndian.Uint64(v); n > uint64(len(r.b)-r.pos) {
			return fmt.Errorf("pickle: FRAME of %d bytes with %d left", n, len(r.b)-r.pos)
		}
		return nil
	}
	if at != 0 {
		return fmt.Errorf("pickle: PROTO at byte %d, not first", at)
	}
	v, err := r.need(1, "PROTO")
	if err != nil {
		return err
	}
	if v[0] < 2 || v[0] > 5 {
		return fmt.Errorf("pickle: protocol %d, not 2 to 5", v[0])
	}
	return nil
}

// readInt reads the argument of BININT1, BININT2, BININT or LONG1 and
// returns it; a negative int or one above 2^62 is an error.
func (r *pickleReader) readInt(op byte) (int, error) {
	var v int
	switch op {
	case 'K':
		a, err := r.need(1, "BININT1")
		if err != nil {
			return 0, err
		}
		v = int(a[0])
	case 'M':
		a, err := r.need(2, "BININT2")
		if err != nil {
			return 0, err
		}
		v = int(binary.LittleEndian.Uint16(a))
	case 'J':
		a, err := r.need(4, "BININT")
		if err != nil {
			return 0, err
		}
		v = int(int32(binary.LittleEndian.Uint32(a)))
	default:
		u, err := r.readLong1()
		if err != nil {
			return 0, err
		}
		v = int(u)
	}
	if v < 0 {
		return 0, fmt.Errorf("pickle: negative int %d", v)
	}
	return v, nil
}

// readLong1 reads the argument of LONG1: a length byte of at most 8, then a
// little-endian two's complement int that must be non-negative and at most
// 2^62.
func (r *pickleReader) readLong1() (uint64, error) {
	n, err := r.need(1, "LONG1")
	if err != nil {
		return 0, err
	}
	if n[0] > 8 {
		return 0, fmt.Errorf("pickle: LONG1 of %d bytes: an int too large for a shape", n[0])
	}
	a, err := r.need(int(n[0]), "LONG1")
	if err != nil {
		return 0, err
	}
	var u uint64
	for k := len(a) - 1; k >= 0; k-- {
		u = u<<8 | uint64(a[k])
	}
	if len(a) > 0 && a[len(a)-1]&0x80 != 0 {
		return 0, errors.New("pickle: a negative int")
	}
	if u > maxPickleInt {
		return 0, fmt.Errorf("pickle: int %d is larger than 2^62", u)
	}
	return u, nil
}

// tuple applies TUPLE1, TUPLE2, TUPLE3 or TUPLE: it replaces the top ints,
// or those above the topmost MARK, with one tuple of them.
func (r *pickleReader) tuple(op byte) error {
	var vals []int
	var err error
	if op == 't' {
		vals, err = r.popMark("TUPLE")
	} else {
		vals, err = r.popInts(int(op-0x84), opcodeName(op))
	}
	if err != nil {
		return err
	}
	return r.push(pickleItem{seq: true, vals: vals})
}

// appendTo applies APPEND or APPENDS: it moves the top int, or those above
// the topmost MARK, into the list below them, which may hold at most 64.
func (r *pickleReader) appendTo(op byte) error {
	var vals []int
	var err error
	if op == 'a' {
		vals, err = r.popInts(1, "APPEND")
	} else {
		vals, err = r.popMark("APPENDS")
	}
	if err != nil {
		return err
	}
	if len(r.stack) == 0 || !r.stack[len(r.stack)-1].list {
		return fmt.Errorf("pickle: %s to something that is not a list", opcodeName(op))
	}
	top := &r.stack[len(r.stack)-1]
	if len(top.vals)+len(vals) > maxNDim {
		return fmt.Errorf("pickle: a list of more than %d ints", maxNDim)
	}
	top.vals = append(top.vals, vals...)
	return nil
}

// push adds it to the stack, which holds at most 72 items.
func (r *pickleReader) push(it pickleItem) error {
	if len(r.stack) >= maxNDim+8 {
		return errors.New("pickle: more than 72 items on its stack")
	}
	r.stack = append(r.stack, it)
	return nil
}

// popInts removes the top k items, which must be ints, and returns them;
// op names the opcode in errors.
func (r *pickleReader) popInts(k int, op string) ([]int, error) {
	if k > len(r.stack) {
		return nil, fmt.Errorf("pickle: %s with %d items on the stack", op, len(r.stack))
	}
	vals := make([]int, k)
	for j, it := range r.stack[len(r.stack)-k:] {
		if it.mark {
			return nil, fmt.Errorf("pickle: %s across a MARK", op)
		}
		if it.seq {
			return nil, fmt.Errorf("pickle: %s of a nested tuple or list; only ints are read", op)
		}
		vals[j] = it.v
	}
	r.stack = r.stack[:len(r.stack)-k]
	return vals, nil
}

// popMark removes the items above the topmost MARK, which must be ints, and
// the MARK, and returns the ints.
func (r *pickleReader) popMark(op string) ([]int, error) {
	m := -1
	for j := len(r.stack) - 1; j >= 0; j-- {
		if r.stack[j].mark {
			m = j
			break
		}
	}
	if m < 0 {
		return nil, fmt.Errorf("pickle: %s without a MARK", op)
	}
	vals, err := r.popInts(len(r.stack)-m-1, op)
	if err != nil {
		return nil, err
	}
	r.stack = r.stack[:m]
	return vals, nil
}

// need returns the next n bytes and moves past them; op names the opcode
// whose argument they are, for the error on truncated input.
func (r *pickleReader) need(n int, op string) ([]byte, error) {
	if n < 0 || r.pos+n > len(r.b) {
		return nil, fmt.Errorf("pickle: truncated in %s at byte %d", op, r.pos)
	}
	arg := r.b[r.pos : r.pos+n]
	r.pos += n
	return arg, nil
}

// opcodeName names a pickle opcode as Python's pickletools does, with its
// byte: "GLOBAL (0x63 'c')".
func opcodeName(op byte) string {
	name, ok := pickleOpcodes[op]
	if !ok {
		name = "an unknown opcode"
	}
	if op >= 0x20 && op < 0x7f {
		return fmt.Sprintf("%s (0x%02x '%c')", name, op, op)
	}
	return fmt.Sprintf("%s (0x%02x)", name, op)
}

// pickleOpcodes names every opcode of pickle protocols 0 to 5 (CPython
// Lib/pickletools.py).
var pickleOpcodes = map[byte]string{
	'I': "INT", 'J': "BININT", 'K': "BININT1", 'M': "BININT2", 'L': "LONG",
	0x8a: "LONG1", 0x8b: "LONG4", 'S': "STRING", 'T': "BINSTRING", 'U': "SHORT_BINSTRING",
	'B': "BINBYTES", 'C': "SHORT_BINBYTES", 0x8e: "BINBYTES8", 0x96: "BYTEARRAY8",
	0x97: "NEXT_BUFFER", 0x98: "READONLY_BUFFER", 'N': "NONE", 0x88: "NEWTRUE", 0x89: "NEWFALSE",
	'V': "UNICODE", 0x8c: "SHORT_BINUNICODE", 'X': "BINUNICODE", 0x8d: "BINUNICODE8",
	'F': "FLOAT", 'G': "BINFLOAT", ']': "EMPTY_LIST", 'a': "APPEND", 'e': "APPENDS", 'l': "LIST",
	')': "EMPTY_TUPLE", 't': "TUPLE", 0x85: "TUPLE1", 0x86: "TUPLE2", 0x87: "TUPLE3",
	'}': "EMPTY_DICT", 'd': "DICT", 's': "SETITEM", 'u': "SETITEMS", 0x8f: "EMPTY_SET",
	0x90: "ADDITEMS", 0x91: "FROZENSET", '0': "POP", '2': "DUP", '(': "MARK", '1': "POP_MARK",
	'g': "GET", 'h': "BINGET", 'j': "LONG_BINGET", 'p': "PUT", 'q': "BINPUT", 'r': "LONG_BINPUT",
	0x94: "MEMOIZE", 0x82: "EXT1", 0x83: "EXT2", 0x84: "EXT4", 'c': "GLOBAL", 0x93: "STACK_GLOBAL",
	'R': "REDUCE", 'b': "BUILD", 'i': "INST", 'o': "OBJ", 0x81: "NEWOBJ", 0x92: "NEWOBJ_EX",
	0x80: "PROTO", '.': "STOP", 0x95: "FRAME", 'P': "PERSID", 'Q': "BINPERSID",
}
