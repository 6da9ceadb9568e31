package netshape

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shape
		bad  bool
	}{
		{"", Shape{}, false},
		{"none", Shape{}, false},
		{"40Mbit,20ms", Shape{Latency: 20 * time.Millisecond, BitsPerSec: 40e6}, false},
		{"20ms/500kbit", Shape{Latency: 20 * time.Millisecond, BitsPerSec: 500e3}, false},
		{" 1Gbit ", Shape{BitsPerSec: 1e9}, false},
		{"300bit 1s", Shape{Latency: time.Second, BitsPerSec: 300}, false},
		{"40MB", Shape{}, true},
		{"0Mbit", Shape{}, true},
		{"-5ms", Shape{}, true},
		{"fast", Shape{}, true},
	} {
		got, err := Parse(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
	for s, want := range map[Shape]string{
		{Latency: 20 * time.Millisecond, BitsPerSec: 40e6}: "40 Mbit/s, 20ms a request",
		{BitsPerSec: 1.5e6}:             "1.5 Mbit/s",
		{Latency: 5 * time.Millisecond}: "5ms a request",
		{}:                              "none (loopback)",
	} {
		if got := s.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", s, got, want)
		}
	}
}

// fakeClock stands for time.Now and time.Sleep: sleeping records the
// duration and, when advance is set, moves the clock on by it.
type fakeClock struct {
	mu      sync.Mutex
	t       time.Time
	advance bool
	slept   []time.Duration
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) sleep(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slept = append(c.slept, d)
	if c.advance {
		c.t = c.t.Add(d)
	}
}

func (c *fakeClock) link(s Shape) *Link { return &Link{Shape: s, now: c.now, sleep: c.sleep} }

// TestSendShared: bytes queued at the same instant wait for those before
// them (one link: 50 KB at 4 Mbit/s is 100 ms, the next 50 KB done at
// 200 ms); an idle link starts from now again; a link without a rate
// never waits.
func TestSendShared(t *testing.T) {
	c := &fakeClock{t: time.Unix(1000, 0)}
	l := c.link(Shape{BitsPerSec: 4e6})
	l.Send(50_000)
	l.Send(50_000)
	c.t = c.t.Add(time.Second)
	l.Send(25_000)
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 50 * time.Millisecond}
	if !slices.Equal(c.slept, want) {
		t.Errorf("waits %v, want %v", c.slept, want)
	}
	c.slept = nil
	c.link(Shape{Latency: time.Second}).Send(1 << 20)
	if len(c.slept) != 0 {
		t.Errorf("a link without a rate waited %v", c.slept)
	}
}

// TestWrap: a response behind the link waits its latency, then its body
// reaches the client whole, written in Chunk pieces, each after the link
// has sent it.
func TestWrap(t *testing.T) {
	c := &fakeClock{t: time.Unix(1000, 0), advance: true}
	l := c.link(Shape{Latency: 30 * time.Millisecond, BitsPerSec: 4e6})
	var mu sync.Mutex
	var pieces []int
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 40_000))
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.Wrap(inner).ServeHTTP(pieceWriter{w, func(n int) { mu.Lock(); pieces = append(pieces, n); mu.Unlock() }}, r)
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if len(body) != 40_000 {
		t.Fatalf("body of %d bytes, want 40000", len(body))
	}
	// 16384 B at 4 Mbit/s: 32.768 ms; the last 7232 B: 14.464 ms.
	wantSlept := []time.Duration{30 * time.Millisecond, 32768 * time.Microsecond, 32768 * time.Microsecond, 14464 * time.Microsecond}
	if !slices.Equal(c.slept, wantSlept) {
		t.Errorf("waits %v, want %v", c.slept, wantSlept)
	}
	if want := []int{Chunk, Chunk, 40_000 - 2*Chunk}; !slices.Equal(pieces, want) {
		t.Errorf("pieces %v, want %v", pieces, want)
	}

	// The zero shape: the handler as it is, no wait.
	c.slept = nil
	rec := httptest.NewRecorder()
	c.link(Shape{}).Wrap(inner).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Body.Len() != 40_000 || len(c.slept) != 0 {
		t.Errorf("zero shape: %d bytes, waits %v", rec.Body.Len(), c.slept)
	}
}

// pieceWriter reports the size of each Write.
type pieceWriter struct {
	http.ResponseWriter
	piece func(n int)
}

func (w pieceWriter) Write(p []byte) (int, error) {
	w.piece(len(p))
	return w.ResponseWriter.Write(p)
}
