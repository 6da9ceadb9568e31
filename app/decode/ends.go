package decode

import "io"

// The io.ReaderAt layers a File reads through, besides the meter: the
// cached ends of the file, and overlays of bytes already read and checked.

// endsChunk is how much of the start and of the end of a file Open reads
// and keeps.
const endsChunk = 64 << 10

// ends serves reads that fall in the cached first and last bytes of a file.
type ends struct {
	r          io.ReaderAt
	head, tail []byte
	tailOff    int64
}

func newEnds(r io.ReaderAt, size int64, chunk int64) (*ends, error) {
	e := &ends{r: r, head: make([]byte, min(size, chunk))}
	e.tailOff = max(0, size-chunk)
	if e.tailOff < int64(len(e.head)) { // small file: the head is all of it
		e.tail, e.tailOff = e.head, 0
		return e, readFull(r, e.head, 0)
	}
	// Both ends at once: in a browser each read is a round trip to the
	// browser process (or a server), and neither needs the other.
	e.tail = make([]byte, size-e.tailOff)
	tail := make(chan error, 1)
	go func() { tail <- readFull(r, e.tail, e.tailOff) }()
	headErr := readFull(r, e.head, 0)
	if err := <-tail; headErr == nil {
		headErr = err
	}
	if headErr != nil {
		return nil, headErr
	}
	return e, nil
}

// holds reports whether the bytes [off, off+n) are cached.
func (e *ends) holds(off, n int64) bool {
	end := off + n
	return (off >= 0 && end <= int64(len(e.head))) || (off >= e.tailOff && end <= e.tailOff+int64(len(e.tail)))
}

// with returns the same cache over another reader of the same file.
func (e *ends) with(r io.ReaderAt) *ends {
	c := *e
	c.r = r
	return &c
}

// ReadAt implements io.ReaderAt.
func (e *ends) ReadAt(p []byte, off int64) (int, error) {
	end := off + int64(len(p))
	switch {
	case off >= 0 && end <= int64(len(e.head)):
		return copy(p, e.head[off:end]), nil
	case off >= e.tailOff && end <= e.tailOff+int64(len(e.tail)):
		return copy(p, e.tail[off-e.tailOff:end-e.tailOff]), nil
	}
	return e.r.ReadAt(p, off)
}

// under returns the reader to put under the meter, over r: a read that
// starts in the cached head or ends in the cached tail reads only the
// bytes between from r (a record batch read whole at the end of a file:
// by URL, its bytes are fetched once). Under the meter, so that the
// progress of a big read counts all its bytes.
func (e *ends) under(r io.ReaderAt) io.ReaderAt { return trimEnds{e.with(r)} }

// trimEnds is ends reading only what the cached head and tail do not hold.
type trimEnds struct{ e *ends }

// ReadAt implements io.ReaderAt.
func (t trimEnds) ReadAt(p []byte, off int64) (int, error) {
	e := t.e
	end := off + int64(len(p))
	headEnd, tailEnd := int64(len(e.head)), e.tailOff+int64(len(e.tail))
	if off < 0 || (off >= headEnd && (end <= e.tailOff || end > tailEnd)) {
		return e.r.ReadAt(p, off)
	}
	lo, hi := off, end
	if off < headEnd {
		lo = min(headEnd, end)
	}
	if end > e.tailOff && end <= tailEnd {
		hi = max(lo, e.tailOff)
	}
	if lo < hi {
		n, err := e.r.ReadAt(p[lo-off:hi-off], lo)
		if int64(n) < hi-lo {
			if lo > off { // the read starts in the head
				copy(p, e.head[off:lo])
			}
			return int(lo-off) + n, err
		}
	}
	if lo > off {
		copy(p, e.head[off:lo])
	}
	if hi < end {
		copy(p[hi-off:], e.tail[hi-e.tailOff:end-e.tailOff])
	}
	return len(p), nil
}

// overlay serves the reads of a ReaderAt that fall within b, the bytes at
// off, from b.
type overlay struct {
	r   io.ReaderAt
	off int64
	b   []byte
}

// ReadAt implements io.ReaderAt.
func (o *overlay) ReadAt(p []byte, off int64) (int, error) {
	if off >= o.off && off+int64(len(p)) <= o.off+int64(len(o.b)) {
		return copy(p, o.b[off-o.off:]), nil
	}
	return o.r.ReadAt(p, off)
}
