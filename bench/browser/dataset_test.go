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
