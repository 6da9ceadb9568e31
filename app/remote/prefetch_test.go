package remote

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

func TestPrefetchServes(t *testing.T) {
	const (
		addr  = "https://huggingface.co/datasets/a/b/resolve/main/x.parquet"
		final = "https://cdn.example/x.parquet?sig=1"
	)
	probe := Prefetch{ID: 1, URL: addr, Final: final, Range: "bytes=0-262143"}
	tail := Prefetch{ID: 2, URL: final, Range: "bytes=1048576-1114111"}
	listing := Prefetch{ID: 3, URL: "https://huggingface.co/api/datasets/a/b/parquet"}
	held := []Prefetch{probe, tail, listing}
	for _, c := range []struct {
		name string
		req  Request
		want int // ID, 0: none
	}{
		{"the probe", Request{URL: addr, N: DefaultBlock}, 1},
		{"the probe at the final address", Request{URL: final, N: DefaultBlock}, 1},
		{"the tail at the final address", Request{URL: final, Off: 1048576, N: 65536}, 2},
		{"another range", Request{URL: final, Off: 1048576, N: 65535}, 0},
		{"an open range", Request{URL: addr, N: -1}, 0},
		{"the tail at the original address", Request{URL: addr, Off: 1048576, N: 65536}, 0},
		{"a HEAD", Request{URL: addr, Head: true}, 0},
		{"the listing", Request{URL: listing.URL, Get: true}, 3},
		{"the listing with a range", Request{URL: listing.URL, N: DefaultBlock}, 0},
		{"another address", Request{URL: addr + "?x", N: DefaultBlock}, 0},
		{"a plain GET of the file", Request{URL: addr, Get: true}, 0},
	} {
		got, ok := Match(held, c.req)
		if (c.want == 0 && ok) || (c.want != 0 && (!ok || got.ID != c.want)) {
			t.Errorf("%s (%+v): %+v %v, want ID %d", c.name, c.req, got, ok, c.want)
		}
	}
	if _, ok := Match(nil, Request{URL: addr, N: DefaultBlock}); ok {
		t.Error("matched with nothing held")
	}
}

// TestBootProbe: web/boot.js asks for the probe Open asks for (the first
// DefaultBlock bytes, Open's default Options), so the app takes it.
func TestBootProbe(t *testing.T) {
	js, err := os.ReadFile("../../web/boot.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*const PROBE = (\d+);`).FindSubmatch(js)
	if m == nil {
		t.Fatal("web/boot.js declares no `const PROBE = <bytes>;`")
	}
	if n, _ := strconv.Atoi(string(m[1])); n != DefaultBlock {
		t.Errorf("web/boot.js's PROBE is %d, Open's probe %d", n, DefaultBlock)
	}
}
