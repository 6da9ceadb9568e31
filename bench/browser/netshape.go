package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The dataset layout's server side (see dataset.go): a timeline of the
// requests and bytes it served, so that what came before the page's first
// previews can be told from what its background opens asked for just
// after; and an optional network shape (BENCH_NET) for the dataset's
// files and the emulated Hub.

// timeline records when each request to a handler arrived and when each
// piece of its body was written.
type timeline struct {
	mu     sync.Mutex
	events []tlEvent
}

type tlEvent struct {
	at    time.Time
	bytes int64 // body bytes written; 0 for a request's arrival
	req   bool  // a request arrived
}

// Wrap returns h recorded by tl.
func (tl *timeline) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tl.add(tlEvent{at: time.Now(), req: true})
		h.ServeHTTP(&tlWriter{ResponseWriter: w, tl: tl}, r)
	})
}

func (tl *timeline) add(e tlEvent) {
	tl.mu.Lock()
	tl.events = append(tl.events, e)
	tl.mu.Unlock()
}

// Reset forgets everything recorded.
func (tl *timeline) Reset() {
	tl.mu.Lock()
	tl.events = nil
	tl.mu.Unlock()
}

// Before returns the body bytes written and the requests that arrived up
// to at.
func (tl *timeline) Before(at time.Time) (bytes, requests int64) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	for _, e := range tl.events {
		if e.at.After(at) {
			continue
		}
		bytes += e.bytes
		if e.req {
			requests++
		}
	}
	return bytes, requests
}

// tlWriter records the body bytes written through it, once written.
type tlWriter struct {
	http.ResponseWriter
	tl *timeline
}

func (w *tlWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.tl.add(tlEvent{at: time.Now(), bytes: int64(n)})
	return n, err
}

// netShape is a network to emulate between the page and the dataset's
// servers: every request answered after Latency, and every body sent at
// BitsPerSec at most over all requests together (one link). The zero
// value is the loopback as it is.
type netShape struct {
	Latency    time.Duration
	BitsPerSec float64
}

func (n netShape) String() string {
	if n == (netShape{}) {
		return "none (loopback)"
	}
	var parts []string
	if n.BitsPerSec > 0 {
		parts = append(parts, strconv.FormatFloat(n.BitsPerSec/1e6, 'f', -1, 64)+" Mbit/s")
	}
	if n.Latency > 0 {
		parts = append(parts, fmt.Sprintf("%v a request", n.Latency))
	}
	return strings.Join(parts, ", ")
}

// parseNet reads a network shape such as "40Mbit,20ms" (a rate in bit, kbit,
// Mbit or Gbit per second, and a latency per request, in either order,
// either left out); "" or "none" is none.
func parseNet(s string) (netShape, error) {
	var n netShape
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

// shaper applies a netShape to handlers: one link shared by all of them.
type shaper struct {
	shape netShape
	mu    sync.Mutex
	free  time.Time // when the link has sent everything asked of it so far
}

// shapeChunk is the piece of a body the link sends at a time.
const shapeChunk = 16 << 10

// Wrap returns h behind the shaper's network.
func (s *shaper) Wrap(h http.Handler) http.Handler {
	if s.shape == (netShape{}) {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(s.shape.Latency)
		h.ServeHTTP(&shapedWriter{ResponseWriter: w, s: s}, r)
	})
}

// send waits until the link has sent n more bytes after what it was asked
// to send before.
func (s *shaper) send(n int) {
	if s.shape.BitsPerSec <= 0 {
		return
	}
	d := time.Duration(float64(n) * 8 / s.shape.BitsPerSec * float64(time.Second))
	s.mu.Lock()
	now := time.Now()
	start := s.free
	if start.Before(now) {
		start = now
	}
	s.free = start.Add(d)
	done := s.free
	s.mu.Unlock()
	time.Sleep(time.Until(done))
}

type shapedWriter struct {
	http.ResponseWriter
	s *shaper
}

func (w *shapedWriter) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		k := min(len(p), shapeChunk)
		w.s.send(k)
		n, err := w.ResponseWriter.Write(p[:k])
		written += n
		if err != nil {
			return written, err
		}
		p = p[k:]
	}
	return written, nil
}
