package netshape

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Shape is a network to emulate: every request answered Latency late, and
// every body sent at BitsPerSec (bits per second) at most, over all the
// requests of one Link together. The zero Shape is the loopback as it is.
type Shape struct {
	Latency    time.Duration
	BitsPerSec float64
}

// String describes s: "40 Mbit/s, 20ms a request", "none (loopback)".
func (s Shape) String() string {
	if s == (Shape{}) {
		return "none (loopback)"
	}
	var parts []string
	if s.BitsPerSec > 0 {
		parts = append(parts, strconv.FormatFloat(s.BitsPerSec/1e6, 'f', -1, 64)+" Mbit/s")
	}
	if s.Latency > 0 {
		parts = append(parts, fmt.Sprintf("%v a request", s.Latency))
	}
	return strings.Join(parts, ", ")
}

// Parse reads a shape such as "40Mbit,20ms": a rate in bit, kbit, Mbit or
// Gbit per second (any case) and a latency per request (a Go duration),
// in either order, separated by a comma, slash or space, either left out.
// "" and "none" are the zero Shape. A rate that is not positive, a
// negative latency or any other part is an error naming that part.
func Parse(s string) (Shape, error) {
	var n Shape
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return n, nil
	}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '/' || r == ' ' }) {
		low := strings.ToLower(part)
		if rest, ok := strings.CutSuffix(low, "bit"); ok {
			mult := 1.0
			for suffix, m := range map[string]float64{"k": 1e3, "m": 1e6, "g": 1e9} {
				if r, ok := strings.CutSuffix(rest, suffix); ok {
					rest, mult = r, m
				}
			}
			v, err := strconv.ParseFloat(rest, 64)
			if err != nil || v <= 0 {
				return n, fmt.Errorf("bad rate %q: want e.g. 40Mbit", part)
			}
			n.BitsPerSec = v * mult
			continue
		}
		d, err := time.ParseDuration(low)
		if err != nil || d < 0 {
			return n, fmt.Errorf("bad part %q: want a rate (40Mbit) or a latency (20ms)", part)
		}
		n.Latency = d
	}
	return n, nil
}

// Chunk is the piece of a body (16 KiB) a Link sends at a time.
const Chunk = 16 << 10

// Link is one emulated link with Shape: the handlers it wraps share its
// rate. Its zero value with a Shape set is ready to use; it is safe for
// concurrent use.
type Link struct {
	Shape Shape

	mu   sync.Mutex
	free time.Time // when the link has sent all it was asked so far

	now   func() time.Time    // time.Now; tests replace it
	sleep func(time.Duration) // time.Sleep; tests replace it
}

// Wrap returns h behind the link: each request waits Shape.Latency, then
// h's body goes out through Writer. With the zero Shape it returns h.
func (l *Link) Wrap(h http.Handler) http.Handler {
	if l.Shape == (Shape{}) {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.pause(l.Shape.Latency)
		h.ServeHTTP(&Writer{ResponseWriter: w, Link: l}, r)
	})
}

// Send waits until the link has sent n more bytes after all it was asked
// to send before (by any caller): n×8/BitsPerSec seconds after the later
// of now and the end of what is already queued. It returns at once when
// the link has no rate.
func (l *Link) Send(n int) {
	if l.Shape.BitsPerSec <= 0 {
		return
	}
	d := time.Duration(float64(n) * 8 / l.Shape.BitsPerSec * float64(time.Second))
	l.mu.Lock()
	now := l.clock()
	start := l.free
	if start.Before(now) {
		start = now
	}
	l.free = start.Add(d)
	wait := l.free.Sub(now)
	l.mu.Unlock()
	l.pause(wait)
}

func (l *Link) clock() time.Time {
	if l.now != nil {
		return l.now()
	}
	return time.Now()
}

func (l *Link) pause(d time.Duration) {
	if l.sleep != nil {
		l.sleep(d)
		return
	}
	time.Sleep(d)
}

// Writer is an http.ResponseWriter whose body goes through Link: written
// in pieces of at most Chunk bytes, each once the link has sent it.
type Writer struct {
	http.ResponseWriter
	Link *Link
}

// Write sends p through the link, a Chunk at a time, and returns the bytes
// the underlying writer took.
func (w *Writer) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		k := min(len(p), Chunk)
		w.Link.Send(k)
		n, err := w.ResponseWriter.Write(p[:k])
		written += n
		if err != nil {
			return written, err
		}
		p = p[k:]
	}
	return written, nil
}
