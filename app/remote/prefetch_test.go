package remote

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
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

// TestBootProbeAddress runs web/boot.js in Node.js on links to files and
// checks that the probe it makes is the app's: to the address CheckURL
// resolves (url.URL.String()), with Open's Range, or none when the app
// would not fetch the address or boot.js cannot build it the same way
// (then the app makes its own request). Without node it skips, unless
// TENSORVIEW_FULL is set (make test sets it).
func TestBootProbeAddress(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("TENSORVIEW_FULL") == "" {
			t.Skip("node is not on PATH: web/boot.js runs in Node.js")
		}
		t.Fatal("node is not on PATH: web/boot.js runs in Node.js")
	}
	const (
		local = "http://127.0.0.1:8080/tensorview/"
		pages = "https://user.github.io/tensorview/"
	)
	cases := []struct {
		page, raw string
		want      bool // boot.js makes the probe
	}{
		{pages, "https://example.org/data/images.arrow", true},
		{pages, "https://example.org/d/x.parquet?X-Amz-Signature=ab%2Fc&X-Amz-Expires=3600", true},
		{pages, "  https://example.org/x.arrow  ", true},
		{pages, "https://example.org/x.arrow#part", true},
		{pages, "https://example.org:8443/x%20y.arrow", true},
		{pages, "https://huggingface.co/datasets/a/b/resolve/refs%2Fconvert%2Fparquet/default/train/0000.parquet", true},
		{pages, "web/samples/js_images.arrow", true},
		{pages, "/other/x.arrow?v=2", true},
		{pages, "x.arrow?a=1&b=2", true},
		{pages, "shard[1].arrow?r=[0,9]", true},
		{local, "http://127.0.0.1:9000/x.arrow", true},
		{local, "http://localhost:9000/x.arrow", true},
		{pages, "http://localhost:9000/x.arrow", true},
		{pages, "http://[::1]:9000/x.arrow", true},
		{pages, "http://example.org/x.arrow", false}, // mixed content: the app refuses it
		{pages, "javascript:alert(1)", false},        // not http(s)
		{pages, "data:application/octet-stream,ARROW1", false},
		{pages, "file:///etc/passwd", false},
		{pages, "", false},
		{pages, "HTTPS://Example.org/x.arrow", false},     // the browser rewrites it: not built as the app does
		{pages, "https://example.org:443/x.arrow", false}, // likewise (the default port)
		{pages, "https://example.org", false},             // likewise (the empty path)
		{pages, "https://example.org/x y.arrow", false},
		{pages, "https://example.org/é.arrow", false},
		{pages, "https://example.org/x.arrow?q='a'", false},
		{pages, "https://example.org/%zz.arrow", false},
		{pages, "../x.arrow", false},
		{pages, "//example.org/x.arrow", false},
	}
	var addrs []string
	for _, c := range cases {
		addrs = append(addrs, c.page+"?"+url.Values{"url": {c.raw}}.Encode())
	}
	in, _ := json.Marshal(addrs)
	cmd := exec.Command("node", "testdata/bootprobe.cjs", "../../web/boot.js")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/bootprobe.cjs: %v\n%s", err, stderr.Bytes())
	}
	var fetched [][]struct{ URL, Range string }
	if err := json.Unmarshal(out, &fetched); err != nil || len(fetched) != len(cases) {
		t.Fatalf("node printed %q: %v", out, err)
	}
	for i, c := range cases {
		u, err := CheckURL(c.raw, addrs[i])
		got := fetched[i]
		switch {
		case len(got) == 0:
			if c.want {
				t.Errorf("%q on %s: no probe, want one (the app fetches %v, %v)", c.raw, c.page, u, err)
			}
		case !c.want:
			t.Errorf("%q on %s: boot.js asked for %+v, want nothing", c.raw, c.page, got)
		case err != nil:
			t.Errorf("%q on %s: boot.js asked for %+v, the app refuses it: %v", c.raw, c.page, got, err)
		case len(got) != 1 || got[0].URL != u.String() || got[0].Range != (Request{N: DefaultBlock}).Header():
			t.Errorf("%q on %s: boot.js asked for %+v, the app asks for %s with Range %s", c.raw, c.page, got, u, Request{N: DefaultBlock}.Header())
		}
	}
}
