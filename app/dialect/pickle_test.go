package dialect

import (
	"encoding/binary"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadPickledInts reads the bytes CPython 3.11's pickle and cloudpickle
// 2.1.0 write (printed by `python3 -c "import cloudpickle;
// print(cloudpickle.dumps(v).hex())"`, and pickle.dumps(v, protocol=p)).
func TestReadPickledInts(t *testing.T) {
	tests := []struct {
		name   string
		hex    string
		want   []int
		scalar bool
	}{
		{"cloudpickle (28, 28)", "80059507000000000000004b1c4b1c86942e", []int{28, 28}, false},
		{"cloudpickle ()", "8005292e", []int{}, false},
		{"cloudpickle (5,)", "80059505000000000000004b0585942e", []int{5}, false},
		{"cloudpickle (1, 2, 3)", "80059509000000000000004b014b024b0387942e", []int{1, 2, 3}, false},
		{"cloudpickle (1, 2, 3, 4)", "8005950c00000000000000284b014b024b034b0474942e", []int{1, 2, 3, 4}, false},
		{"cloudpickle 2 (ndim)", "80054b022e", []int{2}, true},
		{"cloudpickle (300, 70000)", "8005950b000000000000004d2c014a7011010086942e", []int{300, 70000}, false},
		{"cloudpickle (2**31,)", "8005950a000000000000008a050000008000859 42e", []int{1 << 31}, false},
		{"protocol 2 (28, 28)", "80024b1c4b1c8671002e", []int{28, 28}, false},
		{"protocol 2 (1, 2, 3, 4)", "8002284b014b024b034b04747100 2e", []int{1, 2, 3, 4}, false},
		{"protocol 2 ()", "8002292e", []int{}, false},
		{"protocol 2 [1, 2]", "80025d7100284b014b02652e", []int{1, 2}, false},
		{"protocol 5 [1, 2]", "800595090000000000000 05d94284b014b02652e", []int{1, 2}, false},
		{"protocol 4 (28, 28)", "80049507000000000000004b1c4b1c86942e", []int{28, 28}, false},
		{"APPEND", "80025d4b07612e", []int{7}, false},
		{"LONG_BINPUT", "80024b014b0286720000000 02e", []int{1, 2}, false},
		{"LONG1 of 0 bytes", "80028a0085 2e", []int{0}, false},
		{"40 ones", "800595540000000000000028" + strings.Repeat("4b01", 40) + "74942e", ones(40), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, scalar, err := ReadPickledInts(unhex(t, tt.hex))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) || scalar != tt.scalar {
				t.Errorf("= %v scalar %v, want %v scalar %v", got, scalar, tt.want, tt.scalar)
			}
		})
	}
}

func ones(n int) []int {
	v := make([]int, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

// TestReadPickledIntsHostile gives pickles that would run code, or that are
// not a tuple of small non-negative ints, and checks each is refused with
// an error saying why. The os.system ones are the bytes CPython 3.11's
// pickle.dumps writes for an object whose __reduce__ returns
// (os.system, ('echo pwned',)) (dumping runs nothing).
func TestReadPickledIntsHostile(t *testing.T) {
	deep := "8005" + strings.Repeat("28", 100) + "2e"
	long := "8005" + strings.Repeat("4b01", 2100) + "2e"
	tests := []struct{ name, hex, want string }{
		{"os.system protocol 5 (STACK_GLOBAL, REDUCE)", "80059525000000000000008c05706f736978948c0673797374656d9493948c0a6563686f2070776e656494859452942e", "opcode SHORT_BINUNICODE (0x8c) at byte 11"},
		{"os.system protocol 2 (GLOBAL, REDUCE)", "800263706f7369780a73797374656d0a7100580a0000006563686f2070776e656471018571025271032e", "opcode GLOBAL (0x63 'c') at byte 2"},
		{"STACK_GLOBAL", "80054b0193 2e", "opcode STACK_GLOBAL (0x93)"},
		{"REDUCE", "80054b01295 22e", "opcode REDUCE (0x52 'R')"},
		{"BUILD", "80054b01296 22e", "opcode BUILD (0x62 'b')"},
		{"INST", "8005286900", "opcode INST (0x69 'i')"},
		{"OBJ", "8005286f2e", "opcode OBJ (0x6f 'o')"},
		{"NEWOBJ", "80054b01298 12e", "opcode NEWOBJ (0x81)"},
		{"NEWOBJ_EX", "80059 22e", "opcode NEWOBJ_EX (0x92)"},
		{"PERSID", "800550300a2e", "opcode PERSID (0x50 'P')"},
		{"BINPERSID", "80054b01512e", "opcode BINPERSID (0x51 'Q')"},
		{"EXT1", "8005820 12e", "opcode EXT1 (0x82)"},
		{"BINGET", "80054b0194680 02e", "opcode BINGET (0x68 'h')"},
		{"NONE in a tuple", "80054b014e862e", "opcode NONE (0x4e 'N')"},
		{"string", "80058c0161942e", "opcode SHORT_BINUNICODE"},
		{"float", "800547" + "4000000000000000" + "2e", "opcode BINFLOAT"},
		{"True", "8005882e", "opcode NEWTRUE (0x88)"},
		{"dict", "80057d942e", "opcode EMPTY_DICT"},
		{"LONG4 huge int", "80058b0000010000", "opcode LONG4 (0x8b)"},
		{"LONG1 of 9 bytes", "80058a09010000000000000000852e", "LONG1 of 9 bytes"},
		{"LONG1 of 2^63", "80058a080000000000000080852e", "negative"},
		{"LONG1 beyond 2^62", "80058a080100000000000040852e", "larger than 2^62"},
		{"negative BININT", "80054affffffff852e", "negative int -1"},
		{"nested tuple", "80054b014b0286852e", "nested tuple"},
		{"tuple of a list", "80055d852e", "nested tuple"},
		{"deep MARKs", deep, "more than 72 items"},
		{"65 ints", "800528" + strings.Repeat("4b01", 65) + "742e", "more than 64"},
		{"too long", long, "more than the 4096 read"},
		{"truncated frame", "800595070000", "truncated in FRAME"},
		{"frame longer than the rest", "80059507010000000000004b1c2e", "FRAME of 263 bytes"},
		{"truncated BININT", "80054a0100", "truncated in BININT"},
		{"no STOP", "80054b1c4b1c86", "no STOP"},
		{"bytes after STOP", "80054b012e00", "1 bytes after STOP"},
		{"two values", "80054b014b022e", "2 items on the stack"},
		{"empty stack at STOP", "80052e", "0 items on the stack"},
		{"TUPLE2 of one", "80054b01862e", "TUPLE2 (0x86) with 1 items"},
		{"TUPLE without MARK", "80054b01742e", "TUPLE without a MARK"},
		{"MARK left at STOP", "8005284b012e", "STOP with 2 items"},
		{"APPEND to a tuple", "8005294b01612e", "not a list"},
		{"protocol 0 (no PROTO)", "2849310a74702e", "does not start with PROTO"},
		{"protocol 1 (no PROTO)", "284b0174712e", "does not start with PROTO"},
		{"protocol 6", "80064b012e", "protocol 6"},
		{"PROTO twice", "80058005", "PROTO at byte 2"},
		{"empty", "", "does not start with PROTO"},
		{"only PROTO", "80", "does not start with PROTO"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := ReadPickledInts(unhex(t, tt.hex))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("= %v, %v; want an error containing %q", got, err, tt.want)
			}
		})
	}
}

// TestReadPickledIntsTruncated cuts a real cloudpickle at every length.
func TestReadPickledIntsTruncated(t *testing.T) {
	full := unhex(t, "8005950c00000000000000284b014b024b024b0174942e")
	for n := 0; n < len(full); n++ {
		if got, _, err := ReadPickledInts(full[:n]); err == nil {
			t.Errorf("%d of %d bytes: %v, want an error", n, len(full), got)
		}
	}
}

// encodePickle writes ints as pickle protocol 5 does (the encoder FuzzPickle
// checks the reader against): a tuple (or one int when scalar) framed,
// memoized.
func encodePickle(ints []int, scalar bool) []byte {
	var body []byte
	putInt := func(v int) {
		switch {
		case v < 256:
			body = append(body, 'K', byte(v))
		case v < 65536:
			body = append(body, 'M', byte(v), byte(v>>8))
		case v < 1<<31:
			body = binary.LittleEndian.AppendUint32(append(body, 'J'), uint32(v))
		default:
			body = binary.LittleEndian.AppendUint64(append(body, 0x8a, 8), uint64(v))
		}
	}
	switch {
	case scalar:
		putInt(ints[0])
	case len(ints) == 0:
		body = append(body, ')')
	case len(ints) <= 3:
		for _, v := range ints {
			putInt(v)
		}
		body = append(body, byte(0x84+len(ints)), 0x94)
	default:
		body = append(body, '(')
		for _, v := range ints {
			putInt(v)
		}
		body = append(body, 't', 0x94)
	}
	body = append(body, '.')
	out := []byte{0x80, 5, 0x95}
	out = binary.LittleEndian.AppendUint64(out, uint64(len(body)))
	return append(out, body...)
}

func TestEncodePickleMatchesPython(t *testing.T) {
	// The encoder used by FuzzPickle writes what CPython does.
	if got := hex.EncodeToString(encodePickle([]int{300, 70000}, false)); got != "8005950b000000000000004d2c014a7011010086942e" {
		t.Errorf("(300, 70000): %s", got)
	}
	if got := hex.EncodeToString(encodePickle([]int{1, 2, 3, 4}, false)); got != "8005950c00000000000000284b014b024b034b0474942e" {
		t.Errorf("(1, 2, 3, 4): %s", got)
	}
}

// FuzzPickle feeds any bytes to ReadPickledInts. What it accepts must be a
// tuple, list or int within the bounds, and encoding that value again and
// reading it back must give the same value; whatever it refuses, it refuses
// with an error that starts with "pickle: ".
func FuzzPickle(f *testing.F) {
	for _, s := range []string{
		"80059507000000000000004b1c4b1c86942e", "8005292e", "80054b022e", "80024b1c4b1c8671002e",
		"8005950c00000000000000284b014b024b034b0474942e", "80025d7100284b014b02652e",
		"8005950a000000000000008a050000008000859 42e",
		"80059525000000000000008c05706f736978948c0673797374656d9493948c0a6563686f2070776e656494859452942e",
		"800263706f7369780a73797374656d0a7100580a0000006563686f2070776e656471018571025271032e",
	} {
		f.Add(unhex(f, s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ints, scalar, err := ReadPickledInts(b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "pickle: ") {
				t.Fatalf("error %q", err)
			}
			return
		}
		if scalar && len(ints) != 1 || len(ints) > maxNDim || len(b) > maxPickleLen {
			t.Fatalf("accepted %x as %v scalar %v", b, ints, scalar)
		}
		for _, v := range ints {
			if v < 0 || v > 1<<62 {
				t.Fatalf("accepted %x with int %d", b, v)
			}
		}
		again, s2, err := ReadPickledInts(encodePickle(ints, scalar))
		if err != nil || s2 != scalar || !reflect.DeepEqual(again, ints) {
			t.Fatalf("%x read as %v; re-encoded it reads as %v, %v", b, ints, again, err)
		}
	})
}
