package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tensorview/tensorview/internal/hubfake"
)

func TestShardNames(t *testing.T) {
	if got := shardName(7, 20, "parquet"); got != "train-00007-of-00020.parquet" {
		t.Errorf("shardName = %q", got)
	}
	for _, tc := range []struct {
		name string
		i    int
		ok   bool
	}{
		{"train-00000-of-00020.arrow", 0, true},
		{"train-00019-of-00020.arrow", 19, true},
		{"train-00020-of-00020.arrow", 0, false},   // past the last
		{"train-00001-of-00021.arrow", 0, false},   // another count
		{"train-00001-of-00020.parquet", 0, false}, // another format
		{"train-1-of-20.arrow", 0, false},
		{"list.txt", 0, false},
	} {
		if i, ok := shardIndex(tc.name, 20, "arrow"); i != tc.i || ok != tc.ok {
			t.Errorf("shardIndex(%q) = %d, %v; want %d, %v", tc.name, i, ok, tc.i, tc.ok)
		}
	}
}

func TestParseNet(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want netShape
		bad  bool
	}{
		{"", netShape{}, false},
		{"none", netShape{}, false},
		{"40Mbit,20ms", netShape{Latency: 20 * time.Millisecond, BitsPerSec: 40e6}, false},
		{"20ms/500kbit", netShape{Latency: 20 * time.Millisecond, BitsPerSec: 500e3}, false},
		{"1Gbit", netShape{BitsPerSec: 1e9}, false},
		{"40MB", netShape{}, true},
		{"0Mbit", netShape{}, true},
		{"-5ms", netShape{}, true},
	} {
		got, err := parseNet(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("parseNet(%q) = %+v, %v; want %+v (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
	if s := (netShape{Latency: 20 * time.Millisecond, BitsPerSec: 40e6}).String(); s != "40 Mbit/s, 20ms a request" {
		t.Errorf("String = %q", s)
	}
}

// TestTimeline: Before counts the requests that arrived and the bytes
// written up to a time, not those after.
func TestTimeline(t *testing.T) {
	tl := &timeline{}
	srv := httptest.NewServer(tl.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 1000))
	})))
	defer srv.Close()
	get := func() {
		resp, err := http.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	get()
	get()
	mid := time.Now()
	time.Sleep(5 * time.Millisecond)
	get()
	if b, n := tl.Before(mid); b != 2000 || n != 2 {
		t.Errorf("before the third request: %d bytes, %d requests; want 2000, 2", b, n)
	}
	if b, n := tl.Before(time.Now()); b != 3000 || n != 3 {
		t.Errorf("at the end: %d bytes, %d requests; want 3000, 3", b, n)
	}
	tl.Reset()
	if b, n := tl.Before(time.Now()); b != 0 || n != 0 {
		t.Errorf("after Reset: %d bytes, %d requests", b, n)
	}
}

// TestShaper: a body of 50 KB at 4 Mbit/s takes about 100 ms, plus the
// latency.
func TestShaper(t *testing.T) {
	s := &shaper{shape: netShape{Latency: 30 * time.Millisecond, BitsPerSec: 4e6}}
	srv := httptest.NewServer(s.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 50_000))
	})))
	defer srv.Close()
	start := time.Now()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if d := time.Since(start); n != 50_000 || d < 120*time.Millisecond || d > 2*time.Second {
		t.Errorf("%d bytes in %v; want 50000 in about 130 ms", n, d)
	}
}

// TestDatasetLinks: each way's link names the shards on the page's origin,
// the emulated Hub, or the list of links.
func TestDatasetLinks(t *testing.T) {
	s := &shardSet{Format: "parquet", N: 3, File: benchFile{Rows: 312}}
	ds := &dsServer{sets: []*shardSet{s}}
	ds.hub = newTestHub()
	q := func(way string) url.Values {
		v, err := url.ParseQuery(ds.link("http://page", s, way))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if got := q(wayFirst)["url"]; len(got) != 1 || got[0] != "http://page/bench/shards/parquet/train-00000-of-00003.parquet" {
		t.Errorf("first: %v", got)
	}
	if got := q(wayURLs)["url"]; len(got) != 3 || got[2] != "http://page/bench/shards/parquet/train-00002-of-00003.parquet" {
		t.Errorf("url: %v", got)
	}
	if got := q(wayHub); got.Get("hf") != "bench/ds" || got.Get("hub") != "http://api" {
		t.Errorf("hf: %v", got)
	}
	if got := q(wayList).Get("urls"); got != "http://page/bench/shards/parquet/list.txt" {
		t.Errorf("urls: %v", got)
	}
	if wantRows(s, wayFirst) != 312 || wantRows(s, wayHub) != 936 {
		t.Errorf("wantRows: %d, %d", wantRows(s, wayFirst), wantRows(s, wayHub))
	}
}

// newTestHub is an emulated Hub whose API is at http://api.
func newTestHub() *hubfake.Fake {
	h := hubfake.New(hubfake.Options{})
	h.SetOrigins("http://api", "http://cdn")
	return h
}
