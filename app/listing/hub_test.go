package listing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tensorview/tensorview/internal/corsfetch"
	"github.com/tensorview/tensorview/internal/hubfake"
)

// files is n shards of sizes 100, 101, ….
func files(n int) []hubfake.File {
	out := make([]hubfake.File, n)
	for i := range out {
		out[i].Data = make([]byte, 100+i)
	}
	return out
}

// fakeHub is a fake Hub with datasets of every case (any violation, such
// as a request header, fails the test).
func fakeHub(t *testing.T, opt hubfake.Options) *hubfake.Fake {
	f := hubfake.Start(t, opt)
	add := func(id string, d hubfake.Dataset) {
		if err := f.Add(id, d); err != nil {
			t.Fatal(err)
		}
	}
	add("owner/ds", hubfake.Dataset{Configs: []hubfake.Config{
		{Name: "other", Splits: []hubfake.Split{{Name: "train", Files: files(1)}}},
		{Name: "default", Splits: []hubfake.Split{
			{Name: "test", Files: files(2)},
			{Name: "train", Files: files(12)},
			{Name: "validation", Files: files(1)}}},
	}})
	add("plain", hubfake.Dataset{Configs: []hubfake.Config{
		{Name: "first", Splits: []hubfake.Split{{Name: "a", Files: files(1)}, {Name: "b", Files: files(1)}}},
		{Name: "second", Splits: []hubfake.Split{{Name: "train", Partial: true, Files: files(3)}}},
	}})
	add("owner/gated", hubfake.Dataset{Access: hubfake.Gated, Configs: []hubfake.Config{{Name: "default", Splits: []hubfake.Split{{Name: "train", Files: files(1)}}}}})
	add("owner/private", hubfake.Dataset{Access: hubfake.Private, Configs: []hubfake.Config{{Name: "default", Splits: []hubfake.Split{{Name: "train", Files: files(1)}}}}})
	add("owner/empty", hubfake.Dataset{})
	return f
}

// TestHub: what is listed, picked and said, by config and split given.
func TestHub(t *testing.T) {
	f := fakeHub(t, hubfake.Options{TreePage: 5})
	ctx := context.Background()
	for _, c := range []struct {
		dataset, config, split string
		wantConfig, wantSplit  string
		shards                 int
		picked                 string
		listings               int
	}{
		{"owner/ds", "", "", "default", "train", 12,
			`tensorview opened the config "default" and the split "train" of "owner/ds"; it also has the config "other" and the splits "test" and "validation" (config= and split= in the address open another)`, 1},
		{"owner/ds", "default", "", "default", "train", 12,
			`tensorview opened the split "train" of "owner/ds"; it also has the splits "test" and "validation" (config= and split= in the address open another)`, 1},
		{"owner/ds", "", "test", "default", "test", 2,
			`tensorview opened the config "default" of "owner/ds"; it also has the config "other" (config= and split= in the address open another)`, 1},
		{"owner/ds", "other", "train", "other", "train", 1, "", 1},
		{"plain", "", "", "first", "a", 1,
			`tensorview opened the config "first" and the split "a" of "plain"; it also has the config "second" and the split "b" (config= and split= in the address open another)`, 1},
		{"plain", "second", "", "second", "train", 3, `tensorview opened the split "train" of "plain"`, 1},
	} {
		name := fmt.Sprintf("%s %q %q", c.dataset, c.config, c.split)
		f.ResetCounts()
		l, err := Hub(ctx, &corsfetch.Fetcher{}, f.APIURL(), c.dataset, c.config, c.split)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if l.Config != c.wantConfig || l.Split != c.wantSplit || len(l.Shards) != c.shards || l.Picked != c.picked || l.Hub != f.APIURL() {
			t.Errorf("%s: %s/%s, %d shards, picked %q", name, l.Config, l.Split, len(l.Shards), l.Picked)
		}
		if got := f.Count(hubfake.Listing); got != c.listings {
			t.Errorf("%s: %d listings", name, got)
		}
		for i, s := range l.Shards {
			want := fmt.Sprintf("%s/%s/%d.parquet", c.wantConfig, c.wantSplit, i)
			if s.Name != want || s.URL != f.FileURL(c.dataset, c.wantConfig, c.wantSplit, i) || s.Size != -1 {
				t.Errorf("%s: shard %d is %+v, want %s", name, i, s, want)
			}
		}
		if err := HubSizes(ctx, &corsfetch.Fetcher{}, l); err != nil {
			t.Errorf("%s: sizes: %v", name, err)
		}
		for i, s := range l.Shards {
			if s.Size != int64(100+i) {
				t.Errorf("%s: shard %d is %d bytes, want %d", name, i, s.Size, 100+i)
			}
		}
	}
	// Available, when the whole listing was read.
	l, _ := Hub(ctx, &corsfetch.Fetcher{}, f.APIURL(), "owner/ds", "", "")
	if fmt.Sprint(l.Available) != "[{other [train]} {default [test train validation]}]" {
		t.Errorf("available %v", l.Available)
	}
}

// TestHubErrors: each failure's error type and words.
func TestHubErrors(t *testing.T) {
	f := fakeHub(t, hubfake.Options{})
	ctx := context.Background()
	hub := f.APIURL()
	for _, c := range []struct {
		hub, dataset, config, split string
		want                        string
		check                       func(error) bool
	}{
		{hub, "owner/ds", "nope", "", `the Hugging Face dataset "owner/ds" has no config "nope": its configs are "other" (split "train") and "default" (splits "test", "train" and "validation")`,
			func(err error) bool { var e *NotFoundError; return errors.As(err, &e) && e.Config == "nope" }},
		{hub, "owner/ds", "nope", "train", `the Hugging Face dataset "owner/ds" has no config "nope": its configs are "other" (split "train") and "default" (splits "test", "train" and "validation")`,
			func(err error) bool { var e *NotFoundError; return errors.As(err, &e) && len(e.Available) == 2 }},
		{hub, "owner/ds", "default", "val", `the config "default" of the Hugging Face dataset "owner/ds" has no split "val": its splits are "test", "train" and "validation"`,
			func(err error) bool { var e *NotFoundError; return errors.As(err, &e) && e.Split == "val" }},
		{hub, "owner/ds", "", "val", `the config "default" of the Hugging Face dataset "owner/ds" has no split "val": its splits are "test", "train" and "validation"`,
			func(err error) bool { var e *NotFoundError; return errors.As(err, &e) }},
		{hub, "owner/gated", "", "", `the Hugging Face dataset "owner/gated" is gated: reading it needs a Hugging Face login, which tensorview does not send. Open a public dataset, or accept its conditions at ` + hub + `/datasets/owner/gated, download its Parquet files and drop them on this page (the Hub says: "Access to dataset owner/gated is restricted. You must have access to it and be authenticated to access it. Please log in.")`,
			func(err error) bool { var e *AccessError; return errors.As(err, &e) && e.Gated && e.Status == 401 }},
		{hub, "owner/gated", "default", "train", "is gated",
			func(err error) bool { var e *AccessError; return errors.As(err, &e) && e.Gated }},
		{hub, "owner/private", "", "", `the Hugging Face dataset "owner/private" was not found on ` + hub + `, or it is private or gated and needs a Hugging Face login, which tensorview does not send: check its name (owner/name, as in the address of its page), or download its Parquet files and drop them on this page`,
			func(err error) bool { var e *NotFoundError; return errors.As(err, &e) && e.MaybePrivate }},
		{hub, "owner/missing", "default", "train", `"owner/missing" was not found`,
			func(err error) bool { var e *NotFoundError; return errors.As(err, &e) && e.Config == "" }},
		{hub, "owner/empty", "", "", `the Hugging Face dataset "owner/empty" has no Parquet files on ` + hub,
			func(err error) bool { var e *NoParquetError; return errors.As(err, &e) }},
		{hub, "owner/ds/x", "", "", `"owner/ds/x" is not a Hugging Face dataset name: write owner/name (as in the address of its page, such as ibm/duorc) or name`,
			func(err error) bool { var e *DatasetError; return errors.As(err, &e) }},
		{"ftp://x", "owner/ds", "", "", `"ftp://x" is not the http: or https: address of a Hugging Face Hub (such as https://huggingface.co)`,
			func(err error) bool { var e *DatasetError; return errors.As(err, &e) }},
	} {
		_, err := Hub(ctx, &corsfetch.Fetcher{}, c.hub, c.dataset, c.config, c.split)
		if err == nil || !c.check(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q %q: %T %v\nwant %s", c.dataset, c.config, c.split, err, err, c.want)
		}
	}
}

// TestHubRateLimit: a 429 says to wait, how long when the page sees
// Retry-After (huggingface.co does not expose it).
func TestHubRateLimit(t *testing.T) {
	for _, c := range []struct {
		expose string
		wait   time.Duration
		want   string
	}{
		{"", 0, "(HTTP 429): wait a few minutes and try again"},
		{hubfake.APIExposeHeaders + ",Retry-After", 300 * time.Second, "(HTTP 429): wait 5m0s and try again"},
	} {
		f := fakeHub(t, hubfake.Options{RateLimit: 1, APIExpose: c.expose})
		Hub(context.Background(), &corsfetch.Fetcher{}, f.APIURL(), "owner/ds", "", "")
		_, err := Hub(context.Background(), &corsfetch.Fetcher{}, f.APIURL(), "owner/ds", "", "")
		var e *RateLimitError
		if !errors.As(err, &e) || e.RetryAfter != c.wait || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%v (%v)", err, e)
		}
	}
	if got := (&RateLimitError{Hub: "h", RetryAfter: 42 * time.Second}).Error(); !strings.HasSuffix(got, "wait 42 seconds and try again") {
		t.Error(got)
	}
}

// TestHubManyShards: a split of 10,000 shards is listed whole, in order,
// and its sizes come from 10 pages of the tree listing.
func TestHubManyShards(t *testing.T) {
	f := hubfake.Start(t, hubfake.Options{})
	many := make([]hubfake.File, 10_000)
	for i := range many {
		many[i].Data = []byte(fmt.Sprint(i))
	}
	if err := f.Add("owner/big", hubfake.Dataset{Configs: []hubfake.Config{{Name: "default", Splits: []hubfake.Split{{Name: "train", Files: many}}}}}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	l, err := Hub(ctx, &corsfetch.Fetcher{}, f.APIURL(), "owner/big", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := HubSizes(ctx, &corsfetch.Fetcher{}, l); err != nil {
		t.Fatal(err)
	}
	if len(l.Shards) != 10_000 || f.Count(hubfake.Tree) != 10 {
		t.Fatalf("%d shards, %d tree pages", len(l.Shards), f.Count(hubfake.Tree))
	}
	for i, s := range l.Shards {
		if s.Name != fmt.Sprintf("default/train/%d.parquet", i) || s.Size != int64(len(fmt.Sprint(i))) {
			t.Fatalf("shard %d: %+v", i, s)
		}
	}
}

// TestHubBadAnswers: answers that are not the Hub's listing.
func TestHubBadAnswers(t *testing.T) {
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if body == "500" {
			w.WriteHeader(500)
			return
		}
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	tooMany := `["` + strings.Repeat(`a.parquet","`, MaxLinks) + `a.parquet"]`
	for _, c := range []struct {
		body, config, split, want string
	}{
		{`<html>`, "", "", "not the Hub's listing of Parquet files: invalid character '<'"},
		{`[]`, "", "", "not the Hub's listing of Parquet files: expected {, found ["},
		{`{"default": {"train": [1]}}`, "", "", "a file's address is 1, not a string"},
		{`{"default": {"train": ["x"]}} {}`, "", "", "something follows the listing"},
		{`{"default": {"train": ["javascript:alert(1)"]}}`, "", "", `"javascript:alert(1)" is not an http: or https: address`},
		{`{"default": {}}`, "", "", "has no Parquet files"},
		{`{"default": {"train": []}}`, "", "", "has no Parquet files"},
		{tooMany, "c", "s", "lists more than 100,000 files"},
		{`500`, "", "", "the server answered HTTP 500 for " + srv.URL + "/api/datasets/x/parquet"},
	} {
		body = c.body
		_, err := Hub(context.Background(), &corsfetch.Fetcher{}, srv.URL, "x", c.config, c.split)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40s: %v\nwant %s", c.body, err, c.want)
		}
	}
	// Relative addresses are resolved against the listing's.
	body = `{"default": {"train": ["files/0.parquet", "/abs/1.parquet"]}}`
	l, err := Hub(context.Background(), &corsfetch.Fetcher{}, srv.URL+"/mirror/", "x", "", "")
	if err != nil || len(l.Shards) != 2 || l.Shards[0].URL != srv.URL+"/mirror/api/datasets/x/files/0.parquet" || l.Shards[1].URL != srv.URL+"/abs/1.parquet" {
		t.Errorf("%v %+v", err, l)
	}
}
