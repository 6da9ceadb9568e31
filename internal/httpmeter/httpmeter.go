package httpmeter

import (
	"net/http"
	"sync/atomic"
)

// Writer is an http.ResponseWriter that adds the body bytes written through
// it to N.
type Writer struct {
	http.ResponseWriter
	N *atomic.Int64
}

// Write writes p and counts the bytes written.
func (w Writer) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.N.Add(int64(n))
	return n, err
}

// Flush flushes the underlying writer when it can, so streamed responses
// stay streamed.
func (w Writer) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Meter counts the requests a handler answers and the body bytes it writes.
type Meter struct {
	Bytes, Requests atomic.Int64
}

// Wrap returns h counted by m.
func (m *Meter) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.Requests.Add(1)
		h.ServeHTTP(Writer{w, &m.Bytes}, r)
	})
}

// Reset starts counting from zero.
func (m *Meter) Reset() { m.Bytes.Store(0); m.Requests.Store(0) }

// Read returns the body bytes written and the requests answered since the
// last Reset.
func (m *Meter) Read() (bytes, requests int64) { return m.Bytes.Load(), m.Requests.Load() }
