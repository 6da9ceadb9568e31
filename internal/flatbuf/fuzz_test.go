package flatbuf

import (
	"errors"
	"testing"
)

// FuzzTable: any bytes, read with every method on every field number a
// vtable can hold and every table reached (to a depth), never panic, and
// every error is ErrMalformed or ErrTooManyTables.
func FuzzTable(f *testing.F) {
	f.Add(tensorMessage())
	f.Add([]byte{4, 0, 0, 0, 4, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		root, err := Root(b)
		if err != nil {
			checkErr(t, err)
			return
		}
		walk(t, root, 0)
	})
}

func checkErr(t *testing.T, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrTooManyTables) {
		t.Fatalf("unexpected error %v", err)
	}
}

func walk(t *testing.T, tb Table, depth int) {
	if depth > 4 {
		return
	}
	for i := 0; i < 8; i++ {
		_, _ = tb.Int16(i)
		_, _ = tb.Int32(i)
		_, err := tb.Uint8(i)
		checkErr(t, err)
		_, err = tb.Int64(i)
		checkErr(t, err)
		if p, ok, err := tb.Inline(i, 16); ok && p+16 > len(tb.Bytes()) {
			t.Fatalf("Inline(%d, 16) = %d past the %d bytes", i, p, len(tb.Bytes()))
		} else {
			checkErr(t, err)
		}
		checkErr(t, tb.Scalars(8, 4, 2, 1, 8, 4, 2, 1))
		_, err = tb.String(i)
		checkErr(t, err)
		if start, n, err := tb.Vector(i, 8); err == nil && n > 0 && start+8*n > len(tb.Bytes()) {
			t.Fatalf("Vector(%d, 8) = %d, %d past the %d bytes", i, start, n, len(tb.Bytes()))
		} else {
			checkErr(t, err)
		}
		if s, ok, err := tb.TableField(i); ok {
			walk(t, s, depth+1)
		} else {
			checkErr(t, err)
		}
		checkErr(t, tb.Tables(i, func(k int, e Table) error {
			if k < 4 {
				walk(t, e, depth+1)
			}
			return nil
		}))
	}
}
