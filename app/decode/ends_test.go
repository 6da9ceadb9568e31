package decode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// failAt is a ReaderAt over data that fails reads reaching past limit.
type failAt struct {
	readLog
	limit int64
}

var errFailAt = errors.New("read failed")

func (f *failAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.limit {
		n, _ := f.readLog.ReadAt(p[:max(0, f.limit-off)], off)
		return n, errFailAt
	}
	return f.readLog.ReadAt(p, off)
}

// TestEndsPartial: under the meter, a read that starts in the cached head
// or ends in the cached tail reads only the bytes between them from below;
// reads past the end and failing reads say so with the bytes they have.
func TestEndsPartial(t *testing.T) {
	const chunk = 1000
	data := make([]byte, 10_000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	size := int64(len(data))
	l := &readLog{data: data}
	ends, err := newEnds(l, size, chunk)
	if err != nil {
		t.Fatal(err)
	}
	e := ends.under(l)
	for _, c := range []struct {
		off, n int64
		below  []span // the reads made below
	}{
		{10, 100, nil},                                     // in the head
		{size - 500, 400, nil},                             // in the tail
		{500, 1000, []span{{chunk, 500}}},                  // from the head on
		{8500, 1000, []span{{8500, size - chunk - 8500}}},  // into the tail
		{500, size - 600, []span{{chunk, size - 2*chunk}}}, // both
		{3000, 100, []span{{3000, 100}}},                   // between
		{0, size, []span{{chunk, size - 2*chunk}}},         // all
	} {
		k := len(l.since(0))
		p := make([]byte, c.n)
		n, err := e.ReadAt(p, c.off)
		if err != nil || int64(n) != c.n || !bytes.Equal(p, data[c.off:c.off+c.n]) {
			t.Errorf("ReadAt(%d at %d) = %d, %v; equal %v", c.n, c.off, n, err, bytes.Equal(p, data[c.off:c.off+c.n]))
		}
		if got := l.since(k); fmt.Sprint(got) != fmt.Sprint(c.below) {
			t.Errorf("ReadAt(%d at %d) read %v below, want %v", c.n, c.off, got, c.below)
		}
	}
	// Past the end, starting in the head: the bytes there are, io.EOF.
	p := make([]byte, size)
	if n, err := e.ReadAt(p, 500); int64(n) != size-500 || err != io.EOF || !bytes.Equal(p[:n], data[500:]) {
		t.Errorf("a read past the end = %d, %v", n, err)
	}
	// A read below that fails: the head's bytes and those read, its error.
	f := &failAt{readLog: readLog{data: data}, limit: 2000}
	p = make([]byte, 3000)
	if n, err := ends.under(f).ReadAt(p, 500); n != 1500 || !errors.Is(err, errFailAt) || !bytes.Equal(p[:n], data[500:2000]) {
		t.Errorf("a failing read = %d, %v", n, err)
	}
	if n, err := ends.under(f).ReadAt(p, 1500); n != 500 || !errors.Is(err, errFailAt) || !bytes.Equal(p[:n], data[1500:2000]) {
		t.Errorf("a failing read past the head = %d, %v", n, err)
	}
}

// TestBootTail: the end of a file by URL is read by one request of its
// last endsChunk bytes, by OpenReader (an IPC file) and by the Parquet
// reader's worker (web/parquet-worker.js's TAIL); web/boot.js asks for the
// same bytes while the app starts (its TAIL), so the app takes them.
func TestBootTail(t *testing.T) {
	for _, c := range []struct{ file, decl string }{
		{"../../web/boot.js", `(?m)^\s*const TAIL = (\d+)(?: << (\d+))?;`},
		{"../../web/parquet-worker.js", `(?m)^const TAIL = (\d+)(?: << (\d+))?;`},
	} {
		js, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(c.decl).FindSubmatch(js)
		if m == nil {
			t.Errorf("%s declares no TAIL", c.file)
			continue
		}
		n, _ := strconv.Atoi(string(m[1]))
		if len(m[2]) > 0 {
			shift, _ := strconv.Atoi(string(m[2]))
			n <<= shift
		}
		if n != endsChunk {
			t.Errorf("%s's TAIL is %d bytes, OpenReader's endsChunk %d", c.file, n, endsChunk)
		}
	}
}
