package listing

import (
	"bytes"
	"context"
	"io"
	"net/url"
	"testing"

	"github.com/tensorview/tensorview/app/remote"
)

// FuzzURLList: any body and base parse without panicking; every link is
// an absolute http: or https: URL without fragment, listed once, at most
// MaxLinks; an error comes with no links.
func FuzzURLList(f *testing.F) {
	f.Add([]byte("a.parquet\n# c\n\nhttps://x.example/b"), "https://h.example/l.txt")
	f.Add([]byte(`["a", 1, {"x": [2]}, "javascript:x", "//h2/p#f"]`), "http://127.0.0.1:8/d/")
	f.Add([]byte("\ufeff<html>"), "https://h.example/")
	f.Add([]byte(`[`), "https://h.example/")
	f.Fuzz(func(t *testing.T, body []byte, base string) {
		links, bad, err := URLList(body, base)
		if err != nil {
			if links != nil {
				t.Fatalf("links %q with error %v", links, err)
			}
			return
		}
		if len(links) == 0 || len(links) > MaxLinks {
			t.Fatalf("%d links", len(links))
		}
		seen := map[string]bool{}
		for _, l := range links {
			u, err := url.Parse(l)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" || seen[l] {
				t.Fatalf("link %q (%v)", l, err)
			}
			seen[l] = true
		}
		for _, b := range bad {
			if b.Line < 1 || len(b.Text) > 200+len("…") || b.Reason == "" {
				t.Fatalf("bad entry %+v", b)
			}
		}
	})
}

// bodyFetcher answers every request with 200 and body.
type bodyFetcher []byte

func (b bodyFetcher) Fetch(ctx context.Context, req remote.Request) (*remote.Response, error) {
	return &remote.Response{Status: 200, Body: io.NopCloser(bytes.NewReader(b)), ContentLength: int64(len(b))}, nil
}

// FuzzHubListing: any answer to the Hub's listing, read as the object form
// (config and split picked) and as the array form, gives a listing or an
// error without panicking; a listing's shards are http(s) addresses with
// distinct names, in natural order.
func FuzzHubListing(f *testing.F) {
	f.Add([]byte(`{"default": {"train": ["https://h/0.parquet", "https://h/1.parquet"]}, "x": {}}`))
	f.Add([]byte(`["https://h/api/datasets/d/parquet/c/s/0.parquet", "1.parquet", "1.parquet"]`))
	f.Add([]byte(`{"a": {"b": ["x"]}} trailing`))
	f.Add([]byte(`{"a": {"b": [["nested"]]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, cs := range [][2]string{{"", ""}, {"c", "s"}} {
			l, err := Hub(context.Background(), bodyFetcher(body), "https://hub.example", "o/d", cs[0], cs[1])
			if err != nil {
				if l != nil {
					t.Fatal("a listing with an error")
				}
				continue
			}
			if len(l.Shards) == 0 || len(l.Shards) > MaxLinks {
				t.Fatalf("%d shards", len(l.Shards))
			}
			names := map[string]bool{}
			for i, s := range l.Shards {
				u, err := url.Parse(s.URL)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || names[s.Name] || s.Size != -1 {
					t.Fatalf("shard %+v", s)
				}
				names[s.Name] = true
				if i > 0 && NaturalLess(s.Name, l.Shards[i-1].Name) {
					t.Fatalf("%q after %q", s.Name, l.Shards[i-1].Name)
				}
			}
		}
	})
}

// FuzzNaturalLess: the order is strict and total (exactly one of a < b,
// b < a, a == b) and transitive.
func FuzzNaturalLess(f *testing.F) {
	f.Add("part-2", "part-10", "Part-02")
	f.Add("a01", "a1", "A1")
	f.Add("\u212a", "k", "K")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ab, ba := NaturalLess(a, b), NaturalLess(b, a)
		if (a == b) != (!ab && !ba) || (ab && ba) {
			t.Fatalf("%q, %q: %v %v", a, b, ab, ba)
		}
		if ab && NaturalLess(b, c) && !NaturalLess(a, c) {
			t.Fatalf("%q < %q < %q but not %q < %q", a, b, c, a, c)
		}
	})
}
