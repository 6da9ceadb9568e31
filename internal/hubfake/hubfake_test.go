package hubfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// shard is n bytes of shard i.
func shard(i, n int) []byte { return bytes.Repeat([]byte{byte('a' + i)}, n) }

// start is a Fake with owner/ds (configs default and other) and gated and
// private datasets; violations are collected, not failed.
func start(t *testing.T, opt Options) (*Fake, *[]string) {
	var bad []string
	opt.Fail = func(msg string) { bad = append(bad, msg) }
	f := Start(t, opt)
	must(t, f.Add("owner/ds", Dataset{Configs: []Config{
		{Name: "default", Splits: []Split{{Name: "train", Files: []File{{Data: shard(0, 1000)}, {Data: shard(1, 2000)}, {Data: shard(2, 3000)}}}, {Name: "test", Files: []File{{Data: shard(3, 10)}}}}},
		{Name: "other", Splits: []Split{{Name: "train", Partial: true, Files: []File{{Data: shard(4, 20)}}}}},
	}}))
	must(t, f.Add("owner/gated", Dataset{Access: Gated, Configs: []Config{{Name: "default", Splits: []Split{{Name: "train", Files: []File{{Data: shard(0, 5)}}}}}}}))
	must(t, f.Add("owner/private", Dataset{Access: Private, Configs: []Config{{Name: "default", Splits: []Split{{Name: "train", Files: []File{{Data: shard(0, 5)}}}}}}}))
	return f, &bad
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// get makes a GET with the given headers ("Name: value").
func get(t *testing.T, u string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	must(t, err)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	must(t, err)
	return resp, body
}

// TestListing: the object and array forms, in registration order, with the
// Hub's addresses.
func TestListing(t *testing.T) {
	f, bad := start(t, Options{})
	api := f.APIURL()
	u := func(c, s string, n int) string {
		return fmt.Sprintf("%s/api/datasets/owner/ds/parquet/%s/%s/%d.parquet", api, c, s, n)
	}
	for _, c := range []struct{ path, want string }{
		{"/api/datasets/owner/ds/parquet", fmt.Sprintf(`{"default":{"train":[%q,%q,%q],"test":[%q]},"other":{"train":[%q]}}`,
			u("default", "train", 0), u("default", "train", 1), u("default", "train", 2), u("default", "test", 0), u("other", "train", 0))},
		{"/api/datasets/owner/ds/parquet/default", fmt.Sprintf(`{"train":[%q,%q,%q],"test":[%q]}`,
			u("default", "train", 0), u("default", "train", 1), u("default", "train", 2), u("default", "test", 0))},
		{"/api/datasets/owner/ds/parquet/default/test", fmt.Sprintf(`[%q]`, u("default", "test", 0))},
	} {
		resp, body := get(t, api+c.path, "Origin: http://page.test")
		if resp.StatusCode != 200 || strings.TrimSpace(string(body)) != c.want {
			t.Errorf("%s: %d %s\nwant %s", c.path, resp.StatusCode, body, c.want)
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "http://page.test" {
			t.Errorf("%s: Access-Control-Allow-Origin %q", c.path, got)
		}
	}
	if f.Count(Listing) != 3 || len(*bad) != 0 {
		t.Errorf("%d listings, violations %q", f.Count(Listing), *bad)
	}
}

// TestErrors: the Hub's answers for what may not be read.
func TestErrors(t *testing.T) {
	f, _ := start(t, Options{})
	api := f.APIURL()
	for _, c := range []struct {
		path   string
		status int
		code   string
	}{
		{"/api/datasets/owner/gated/parquet", 401, "GatedRepo"},
		{"/api/datasets/owner/gated/parquet/default/train/0.parquet", 401, "GatedRepo"},
		{"/api/datasets/owner/private/parquet", 401, "RepoNotFound"},
		{"/api/datasets/owner/missing/parquet", 401, "RepoNotFound"},
		{"/api/datasets/missing/parquet", 401, "RepoNotFound"},
		{"/api/datasets/owner/ds/parquet/nope", 404, ""},
		{"/api/datasets/owner/ds/parquet/default/nope", 404, ""},
		{"/api/datasets/owner/ds/parquet/default/train/3.parquet", 404, "EntryNotFound"},
		{"/api/datasets/owner/ds/parquet/default/train/00.parquet", 404, "EntryNotFound"},
	} {
		resp, body := get(t, api+c.path)
		var e struct{ Error string }
		json.Unmarshal(body, &e)
		if resp.StatusCode != c.status || resp.Header.Get("X-Error-Code") != c.code || e.Error == "" {
			t.Errorf("%s: %d %q %s", c.path, resp.StatusCode, resp.Header.Get("X-Error-Code"), body)
		}
	}
}

// TestRedirectsAndExpiry: a listed address redirects to the resolve
// address, which redirects to a signed CDN address serving ranges with
// CORS; after the expiry that address answers 403 and the listed address a
// fresh one.
func TestRedirectsAndExpiry(t *testing.T) {
	f, bad := start(t, Options{Expiry: 10 * time.Minute})
	listed := f.FileURL("owner/ds", "default", "train", 1)
	resp, body := get(t, listed, "Range: bytes=10-19")
	final := resp.Request.URL.String()
	if resp.StatusCode != 206 || !bytes.Equal(body, shard(1, 10)) || resp.Header.Get("Content-Range") != "bytes 10-19/2000" {
		t.Fatalf("%d %q %q", resp.StatusCode, body, resp.Header.Get("Content-Range"))
	}
	if !strings.HasPrefix(final, f.CDNURL()+"/repos/owner/ds/default/train/0001.parquet?Expires=") {
		t.Errorf("final address %s", final)
	}
	if resp.Header.Get("Access-Control-Allow-Origin") != "*" || resp.Header.Get("Access-Control-Expose-Headers") != CDNExposeHeaders || resp.Header.Get("ETag") == "" {
		t.Errorf("CDN headers %v", resp.Header)
	}
	if f.Count(APIFile) != 1 || f.Count(Resolve) != 1 || f.Count(CDN) != 1 || f.Hits("/datasets/owner/ds/resolve/refs/convert/parquet/default/train/0001.parquet") != 1 {
		t.Errorf("counts %d %d %d", f.Count(APIFile), f.Count(Resolve), f.Count(CDN))
	}
	f.Advance(10 * time.Minute) // still valid at its last second
	if resp, _ := get(t, final, "Range: bytes=0-"); resp.StatusCode != 206 {
		t.Errorf("at expiry: %d", resp.StatusCode)
	}
	f.Advance(time.Second)
	if resp, body := get(t, final, "Range: bytes=0-9"); resp.StatusCode != 403 || !strings.Contains(string(body), "expired") || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("after expiry: %d %s", resp.StatusCode, body)
	}
	if f.Count(Expired) != 1 {
		t.Errorf("%d expired", f.Count(Expired))
	}
	resp, body = get(t, listed, "Range: bytes=0-9")
	if resp.StatusCode != 206 || resp.Request.URL.String() == final || !bytes.Equal(body, shard(1, 10)) {
		t.Errorf("resolved again: %d %s", resp.StatusCode, resp.Request.URL)
	}
	// A forged signature, and a partial split's directory.
	if resp, _ := get(t, strings.Replace(final, "Signature=", "Signature=0", 1)); resp.StatusCode != 403 {
		t.Errorf("forged: %d", resp.StatusCode)
	}
	resp, body = get(t, f.FileURL("owner/ds", "other", "train", 0))
	if resp.StatusCode != 200 || !bytes.Equal(body, shard(4, 20)) || !strings.Contains(resp.Request.URL.Path, "/other/partial-train/0000.parquet") {
		t.Errorf("partial: %d %s", resp.StatusCode, resp.Request.URL)
	}
	if len(*bad) != 0 {
		t.Errorf("violations %q", *bad)
	}
}

// TestViolations: preflights, suffix and multiple ranges and custom
// headers are refused (403, no CORS headers) and reported.
func TestViolations(t *testing.T) {
	f, bad := start(t, Options{})
	listed := f.FileURL("owner/ds", "default", "train", 0)
	resp, _ := get(t, listed)
	final := resp.Request.URL.String()
	for _, c := range []struct {
		u       string
		method  string
		headers []string
	}{
		{final, "OPTIONS", []string{"Access-Control-Request-Headers: range"}},
		{f.ListingURL("owner/ds"), "OPTIONS", nil},
		{final, "GET", []string{"Range: bytes=-100"}},
		{final, "GET", []string{"Range: bytes=0-1,5-6"}},
		{final, "GET", []string{"Authorization: Bearer hf_x"}},
		{f.ListingURL("owner/ds"), "GET", []string{"X-Requested-With: x"}},
		{final, "POST", nil},
	} {
		req, _ := http.NewRequest(c.method, c.u, nil)
		for _, h := range c.headers {
			k, v, _ := strings.Cut(h, ": ")
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		must(t, err)
		resp.Body.Close()
		if resp.StatusCode != 403 || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s %v: %d %v", c.method, c.headers, resp.StatusCode, resp.Header)
		}
	}
	if len(*bad) != 7 || len(f.Violations()) != 7 {
		t.Errorf("%d violations: %q", len(*bad), *bad)
	}
}

// TestRateLimit: past the limit, 429 with Retry-After until the window ends.
func TestRateLimit(t *testing.T) {
	f, _ := start(t, Options{RateLimit: 2, RateWindow: time.Minute})
	for i, want := range []int{200, 200, 429} {
		resp, _ := get(t, f.ListingURL("owner/ds"))
		if resp.StatusCode != want {
			t.Errorf("request %d: %d", i, resp.StatusCode)
		}
		if want == 429 && resp.Header.Get("Retry-After") != "60" {
			t.Errorf("Retry-After %q", resp.Header.Get("Retry-After"))
		}
	}
	f.Advance(45 * time.Second)
	if resp, _ := get(t, f.ListingURL("owner/ds")); resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "15" {
		t.Errorf("%d %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	f.Advance(15 * time.Second)
	if resp, _ := get(t, f.ListingURL("owner/ds")); resp.StatusCode != 200 {
		t.Errorf("after the window: %d", resp.StatusCode)
	}
	if f.Count(RateLimited) != 2 {
		t.Errorf("%d rate limited", f.Count(RateLimited))
	}
}

// TestTreePages: the tree of a split, paged by Link.
func TestTreePages(t *testing.T) {
	f, _ := start(t, Options{TreePage: 2})
	u := f.APIURL() + "/api/datasets/owner/ds/tree/refs%2Fconvert%2Fparquet/default/train"
	var paths []string
	var sizes []int64
	for pages := 0; u != ""; pages++ {
		if pages > 3 {
			t.Fatal("too many pages")
		}
		resp, body := get(t, u)
		var entries []treeEntry
		must(t, json.Unmarshal(body, &entries))
		for _, e := range entries {
			paths, sizes = append(paths, e.Path), append(sizes, e.Size)
		}
		u = ""
		if link := resp.Header.Get("Link"); link != "" {
			u = strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`)
		}
	}
	if fmt.Sprint(paths, sizes) != "[default/train/0000.parquet default/train/0001.parquet default/train/0002.parquet] [1000 2000 3000]" {
		t.Errorf("%v %v", paths, sizes)
	}
	if resp, _ := get(t, f.APIURL()+"/api/datasets/owner/ds/tree/refs%2Fconvert%2Fparquet/other/partial-train"); resp.StatusCode != 200 {
		t.Errorf("partial tree: %d", resp.StatusCode)
	}
}
