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
	type item struct {
		mark bool
		seq  bool // a tuple or list; else an int
		list bool
		v    int
		vals []int
	}
	var stack []item
	push := func(it item) error {
		if len(stack) >= maxNDim+8 {
			return errors.New("pickle: more than 72 items on its stack")
		}
		stack = append(stack, it)
		return nil
	}
	// popInts removes the top k items, which must be ints.
	popInts := func(k int, op string) ([]int, error) {
		if k > len(stack) {
			return nil, fmt.Errorf("pickle: %s with %d items on the stack", op, len(stack))
		}
		vals := make([]int, k)
		for j, it := range stack[len(stack)-k:] {
			if it.mark {
				return nil, fmt.Errorf("pickle: %s across a MARK", op)
			}
			if it.seq {
				return nil, fmt.Errorf("pickle: %s of a nested tuple or list; only ints are read", op)
			}
			vals[j] = it.v
		}
		stack = stack[:len(stack)-k]
		return vals, nil
	}
	// popMark removes the items above the topmost MARK, and the MARK.
	popMark := func(op string) ([]int, error) {
		m := -1
		for j := len(stack) - 1; j >= 0; j-- {
			if stack[j].mark {
				m = j
				break
			}
		}
		if m < 0 {
			return nil, fmt.Errorf("pickle: %s without a MARK", op)
		}
		vals, err := popInts(len(stack)-m-1, op)
		if err != nil {
			return nil, err
		}
		stack = stack[:m]
		return vals, nil
	}
	pos := 0
	need := func(n int, op string) ([]byte, error) {
		if n < 0 || pos+n > len(b) {
			return nil, fmt.Errorf("pickle: truncated in %s at byte %d", op, pos)
		}
		arg := b[pos : pos+n]
		pos += n
		return arg, nil
	}
	const maxInt = 1 << 62
	for pos < len(b) {
		at := pos
		op := b[pos]
		pos++
		if at == 0 && op != 0x80 {
			return nil, false, errors.New("pickle: does not start with PROTO")
		}
		switch op {
		case 0x80: // PROTO
			if at != 0 {
				return nil, false, fmt.Errorf("pickle: PROTO at byte %d, not first", at)
			}
			v, err := need(1, "PROTO")
			if err != nil {
				return nil, false, err
			}
			if v[0] < 2 || v[0] > 5 {
				return nil, false, fmt.Errorf("pickle: protocol %d, not 2 to 5", v[0])
			}
		case 0x95: // FRAME: an 8-byte length of the opcodes that follow
			v, err := need(8, "FRAME")
			if err != nil {
				return nil, false, err
			}
			if n := binary.LittleEndian.Uint64(v); n > uint64(len(b)-pos) {
				return nil, false, fmt.Errorf("pickle: FRAME of %d bytes with %d left", n, len(b)-pos)
			}
		case '(': // MARK
			if err := push(item{mark: true}); err != nil {
				return nil, false, err
			}
		case 'K', 'M', 'J', 0x8a: // BININT1, BININT2, BININT, LONG1
			var v int
			switch op {
			case 'K':
				a, err := need(1, "BININT1")
				if err != nil {
					return nil, false, err
				}
				v = int(a[0])
			case 'M':
				a, err := need(2, "BININT2")
				if err != nil {
					return nil, false, err
				}
				v = int(binary.LittleEndian.Uint16(a))
			case 'J':
				a, err := need(4, "BININT")
				if err != nil {
					return nil, false, err
				}
				v = int(int32(binary.LittleEndian.Uint32(a)))
			default:
				n, err := need(1, "LONG1")
				if err != nil {
					return nil, false, err
				}
				if n[0] > 8 {
					return nil, false, fmt.Errorf("pickle: LONG1 of %d bytes: an int too large for a shape", n[0])
				}
				a, err := need(int(n[0]), "LONG1")
				if err != nil {
					return nil, false, err
				}
				var u uint64
				for k := len(a) - 1; k >= 0; k-- {
					u = u<<8 | uint64(a[k])
				}
				if len(a) > 0 && a[len(a)-1]&0x80 != 0 {
					return nil, false, errors.New("pickle: a negative int")
				}
				if u > maxInt {
					return nil, false, fmt.Errorf("pickle: int %d is larger than 2^62", u)
				}
				v = int(u)
			}
			if v < 0 {
				return nil, false, fmt.Errorf("pickle: negative int %d", v)
			}
			if err := push(item{v: v}); err != nil {
				return nil, false, err
			}
		case ')', ']': // EMPTY_TUPLE, EMPTY_LIST
			if err := push(item{seq: true, list: op == ']', vals: []int{}}); err != nil {
				return nil, false, err
			}
		case 0x85, 0x86, 0x87, 't': // TUPLE1, TUPLE2, TUPLE3, TUPLE
			var vals []int
			var err error
			if op == 't' {
				vals, err = popMark("TUPLE")
			} else {
				vals, err = popInts(int(op-0x84), opcodeName(op))
			}
			if err != nil {
				return nil, false, err
			}
			if err := push(item{seq: true, vals: vals}); err != nil {
				return nil, false, err
			}
		case 'a', 'e': // APPEND, APPENDS
			var vals []int
			var err error
			if op == 'a' {
				vals, err = popInts(1, "APPEND")
			} else {
				vals, err = popMark("APPENDS")
			}
			if err != nil {
				return nil, false, err
			}
			if len(stack) == 0 || !stack[len(stack)-1].list {
				return nil, false, fmt.Errorf("pickle: %s to something that is not a list", opcodeName(op))
			}
			top := &stack[len(stack)-1]
			if len(top.vals)+len(vals) > maxNDim {
				return nil, false, fmt.Errorf("pickle: a list of more than %d ints", maxNDim)
			}
			top.vals = append(top.vals, vals...)
		case 0x94: // MEMOIZE: the memo is never read (no GET is accepted)
		case 'q': // BINPUT
			if _, err := need(1, "BINPUT"); err != nil {
				return nil, false, err
			}
		case 'r': // LONG_BINPUT
			if _, err := need(4, "LONG_BINPUT"); err != nil {
				return nil, false, err
			}
		case '.': // STOP
			if pos != len(b) {
				return nil, false, fmt.Errorf("pickle: %d bytes after STOP", len(b)-pos)
			}
			if len(stack) != 1 || stack[0].mark {
				return nil, false, fmt.Errorf("pickle: STOP with %d items on the stack, want one value", len(stack))
			}
			it := stack[0]
			if !it.seq {
				return []int{it.v}, true, nil
			}
			if len(it.vals) > maxNDim {
				return nil, false, fmt.Errorf("pickle: a tuple of %d ints, more than %d", len(it.vals), maxNDim)
			}
			return it.vals, false, nil
		default:
			return nil, false, fmt.Errorf("pickle: opcode %s at byte %d is not read: tensorview reads only pickles of ints, never objects or calls", opcodeName(op), at)
		}
	}
	return nil, false, errors.New("pickle: truncated: no STOP")
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
