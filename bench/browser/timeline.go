package main

import (
	"net/http"
	"sync"
	"time"
)

// The dataset layout's server side (see dataset.go): a timeline of the
// requests and bytes it served, so that what came before the page's first
// previews can be told from what its background opens asked for just
// after. The optional network shape (BENCH_NET) for the dataset's files
// and the emulated Hub is internal/netshape's.

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
