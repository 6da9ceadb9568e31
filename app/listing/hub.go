package listing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/tensorview/tensorview/app/remote"
)

// Shard is one file of a dataset: its address, the name to show and its
// size in bytes (-1 when the listing does not say).
type Shard struct {
	URL  string
	Name string
	Size int64
}

// Subset is a config of a dataset and its splits, in the listing's order.
type Subset struct {
	Config string
	Splits []string
}

// HubListing is a split of a Hugging Face dataset as Hub lists it.
type HubListing struct {
	Hub, Dataset  string // the Hub's address and the dataset's id
	Config, Split string // the split listed
	// Picked says which config and split tensorview chose, and what else
	// there is, when they were not both given ("" when they were).
	Picked string
	// Available is the dataset's configs and splits, when the listing gave
	// them (nil when config and split were both given).
	Available []Subset
	// Shards are the split's Parquet files, in natural order of Name
	// ("<config>/<split>/<n>.parquet"); their size is -1 until HubSizes.
	Shards []Shard
}

// MaxListingBytes is the largest answer of the Hub read as a listing.
const MaxListingBytes = 32 << 20

// Hub lists the Parquet shards of a split of a Hugging Face dataset
// (refs/convert/parquet) through the Hub's API at hub (DefaultHub when
// ""), with f (plain GETs without any header: no login is sent):
// GET <hub>/api/datasets/<dataset>/parquet/<config>/<split> when config
// and split are both given, else GET <hub>/api/datasets/<dataset>/parquet,
// of which it picks the config "default" if there is one, else the first,
// and its split "train" if there is one, else the first (Picked says so).
// Formats: the dataset viewer's documentation, "List Parquet files",
// "Using the Hugging Face Hub API" (huggingface/dataset-viewer
// docs/source/parquet.md).
//
// Its errors: *DatasetError (a name or hub= that is not one),
// *NotFoundError (the dataset, config or split; for a config or split,
// with what the dataset has), *AccessError (a gated dataset, or HTTP 403),
// *RateLimitError (HTTP 429), *NoParquetError, *ListError (an answer that
// is not a listing), *TooManyError (past MaxLinks shards), the Fetcher's
// errors (network, CORS), *remote.StatusError (other HTTP errors).
func Hub(ctx context.Context, f remote.Fetcher, hub, dataset, config, split string) (*HubListing, error) {
	base, err := HubOrigin(hub)
	if err != nil {
		return nil, err
	}
	if err := CheckDataset(dataset); err != nil {
		return nil, err
	}
	l := &HubListing{Hub: base, Dataset: dataset, Config: config, Split: split}
	api := base + "/api/datasets/" + dataset + "/parquet"
	if config != "" && split != "" {
		u := api + "/" + url.PathEscape(config) + "/" + url.PathEscape(split)
		urls, err := getListing(ctx, f, l, u, parseArray)
		var nf *NotFoundError
		if errors.As(err, &nf) && nf.Config != "" {
			// Say what there is instead.
			subsets, err := getListing(ctx, f, l, api, parseObject)
			if err != nil {
				return nil, err
			}
			nf.Available = available(subsets)
			return nil, nf
		}
		if err != nil {
			return nil, err
		}
		if err := l.setShards(u, urls); err != nil {
			return nil, err
		}
		return l, nil
	}
	subsets, err := getListing(ctx, f, l, api, parseObject)
	if err != nil {
		return nil, err
	}
	l.Available = available(subsets)
	c, s, err := l.pick(subsets)
	if err != nil {
		return nil, err
	}
	if err := l.setShards(api, c.splits[s].urls); err != nil {
		return nil, err
	}
	return l, nil
}

// subset is a config as the Hub lists it.
type subset struct {
	name   string
	splits []splitURLs
}

type splitURLs struct {
	name string
	urls []string
}

// available is the configs and splits of a listing.
func available(list []subset) []Subset {
	out := make([]Subset, len(list))
	for i, c := range list {
		out[i].Config = c.name
		for _, s := range c.splits {
			out[i].Splits = append(out[i].Splits, s.name)
		}
	}
	return out
}

// findSubset is the config named name of list.
func findSubset(list []Subset, name string) (Subset, bool) {
	for _, s := range list {
		if s.Config == name {
			return s, true
		}
	}
	return Subset{}, false
}

// pick chooses l's config and split in list (the given ones, else
// "default" and "train" when there, else the first) and says so in
// l.Picked; it returns the config and the split's index.
func (l *HubListing) pick(list []subset) (subset, int, error) {
	if len(list) == 0 {
		return subset{}, 0, &NoParquetError{Hub: l.Hub, Dataset: l.Dataset}
	}
	missing := &NotFoundError{Hub: l.Hub, Dataset: l.Dataset, Config: l.Config, Split: l.Split, Available: l.Available}
	pickedConfig, pickedSplit := l.Config == "", l.Split == ""
	ci := -1
	for i, c := range list {
		if c.name == l.Config || (pickedConfig && ci < 0 && c.name == "default") {
			ci = i
		}
	}
	if ci < 0 && pickedConfig {
		ci = 0
	}
	if ci < 0 {
		return subset{}, 0, missing
	}
	c := list[ci]
	l.Config = c.name
	missing.Config = c.name
	si := -1
	for i, s := range c.splits {
		if s.name == l.Split || (pickedSplit && si < 0 && s.name == "train") {
			si = i
		}
	}
	if si < 0 && pickedSplit && len(c.splits) > 0 {
		si = 0
	}
	if si < 0 {
		if len(c.splits) == 0 {
			return subset{}, 0, &NoParquetError{Hub: l.Hub, Dataset: l.Dataset}
		}
		return subset{}, 0, missing
	}
	l.Split = c.splits[si].name
	l.Picked = l.pickedNote(list, c, pickedConfig, pickedSplit)
	return c, si, nil
}

// pickedNote says what tensorview chose and what else there is.
func (l *HubListing) pickedNote(list []subset, c subset, config, split bool) string {
	var chose []string
	if config {
		chose = append(chose, fmt.Sprintf("the config %q", l.Config))
	}
	if split {
		chose = append(chose, fmt.Sprintf("the split %q", l.Split))
	}
	if len(chose) == 0 {
		return ""
	}
	var others []string
	var otherConfigs, otherSplits []string
	for _, o := range list {
		if o.name != c.name {
			otherConfigs = append(otherConfigs, o.name)
		}
	}
	for _, s := range c.splits {
		if s.name != l.Split {
			otherSplits = append(otherSplits, s.name)
		}
	}
	if config && len(otherConfigs) > 0 {
		others = append(others, either(len(otherConfigs), "the config ", "the configs ")+names(otherConfigs))
	}
	if split && len(otherSplits) > 0 {
		others = append(others, either(len(otherSplits), "the split ", "the splits ")+names(otherSplits))
	}
	note := "tensorview opened " + joinAnd(chose) + " of " + strconv.Quote(l.Dataset)
	if len(others) > 0 {
		note += "; it also has " + joinAnd(others) + " (config= and split= in the address open another)"
	}
	return note
}

// setShards sets l.Shards from the listing's URLs (resolved against the
// listing's address u), sorted by name.
func (l *HubListing) setShards(u string, urls []string) error {
	base, _ := url.Parse(u)
	l.Shards = make([]Shard, 0, len(urls))
	names := make([]string, 0, len(urls))
	byName := map[string]Shard{}
	for _, s := range urls {
		ref, err := url.Parse(s)
		if err != nil {
			return &ListError{URL: u, Reason: fmt.Sprintf("%q is not a URL", cut(s))}
		}
		a := base.ResolveReference(ref)
		if a.Scheme != "http" && a.Scheme != "https" {
			return &ListError{URL: u, Reason: fmt.Sprintf("%q is not an http: or https: address", cut(s))}
		}
		name := l.Config + "/" + l.Split + "/" + path.Base(a.Path)
		if _, dup := byName[name]; dup {
			name += "#" + strconv.Itoa(len(names)) // keep both, told apart
		}
		byName[name] = Shard{URL: a.String(), Name: name, Size: -1}
		names = append(names, name)
	}
	SortNatural(names)
	for _, n := range names {
		l.Shards = append(l.Shards, byName[n])
	}
	if len(l.Shards) == 0 {
		return &NoParquetError{Hub: l.Hub, Dataset: l.Dataset}
	}
	return nil
}

// getListing GETs u and parses its body with parse, or returns the Hub's
// error for l.
func getListing[T any](ctx context.Context, f remote.Fetcher, l *HubListing, u string, parse func(io.Reader) (T, error)) (T, error) {
	var zero T
	resp, err := f.Fetch(ctx, remote.Request{URL: u, Get: true})
	if err != nil {
		return zero, err
	}
	defer resp.Body.Close()
	if resp.Status != http.StatusOK {
		return zero, hubError(l, u, resp)
	}
	v, err := parse(io.LimitReader(resp.Body, MaxListingBytes))
	if err != nil {
		var tm *TooManyError
		if errors.As(err, &tm) {
			tm.URL = u
			return zero, tm
		}
		return zero, &ListError{URL: u, Reason: "not the Hub's listing of Parquet files: " + err.Error()}
	}
	return v, nil
}

// hubError is the error of the Hub's answer resp (not 200) to u.
func hubError(l *HubListing, u string, resp *remote.Response) error {
	code := resp.Get("X-Error-Code")
	server := resp.Get("X-Error-Message")
	var body struct {
		Error string `json:"error"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&body) == nil && body.Error != "" {
		server = body.Error
	}
	gated := code == "GatedRepo" || strings.Contains(strings.ToLower(server), "gated") || strings.Contains(strings.ToLower(server), "restricted")
	switch {
	case (resp.Status == 401 || resp.Status == 403) && gated:
		return &AccessError{Hub: l.Hub, Dataset: l.Dataset, Status: resp.Status, Gated: true, Server: server}
	case resp.Status == 401 || code == "RepoNotFound":
		return &NotFoundError{Hub: l.Hub, Dataset: l.Dataset, MaybePrivate: resp.Status == 401}
	case resp.Status == 403:
		return &AccessError{Hub: l.Hub, Dataset: l.Dataset, Status: resp.Status, Server: server}
	case resp.Status == 404 && strings.HasSuffix(u, "/parquet"): // the dataset's whole listing
		return &NotFoundError{Hub: l.Hub, Dataset: l.Dataset}
	case resp.Status == 404:
		return &NotFoundError{Hub: l.Hub, Dataset: l.Dataset, Config: l.Config, Split: l.Split}
	case resp.Status == 429:
		return &RateLimitError{Hub: l.Hub, RetryAfter: retryAfter(resp.Get("Retry-After"), time.Now())}
	}
	return &remote.StatusError{URL: u, Status: resp.Status}
}

// retryAfter reads a Retry-After header (seconds, or an HTTP date), 0 when
// absent or not one.
func retryAfter(h string, now time.Time) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil && t.After(now) {
		return t.Sub(now).Round(time.Second)
	}
	return 0
}

// parseArray reads the Hub's array form: ["<url>", ...].
func parseArray(r io.Reader) ([]string, error) {
	dec := json.NewDecoder(r)
	n := 0
	urls, err := readURLs(dec, &n)
	if err != nil {
		return nil, err
	}
	return urls, trailing(dec)
}

// parseObject reads the Hub's object form, keeping its order:
// {"<config>": {"<split>": ["<url>", ...]}}.
func parseObject(r io.Reader) ([]subset, error) {
	dec := json.NewDecoder(r)
	n := 0
	var out []subset
	err := readObject(dec, func(config string) error {
		c := subset{name: config}
		err := readObject(dec, func(split string) error {
			urls, err := readURLs(dec, &n)
			c.splits = append(c.splits, splitURLs{split, urls})
			return err
		})
		out = append(out, c)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, trailing(dec)
}

// readObject reads a JSON object, calling member with each key; member
// reads the value.
func readObject(dec *json.Decoder, member func(key string) error) error {
	if err := expect(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("a key is %v", tok)
		}
		if err := member(key); err != nil {
			return err
		}
	}
	return expect(dec, '}')
}

// readURLs reads a JSON array of strings, counting them in n (all the
// listing's), up to MaxLinks.
func readURLs(dec *json.Decoder, n *int) ([]string, error) {
	if err := expect(dec, '['); err != nil {
		return nil, err
	}
	var urls []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		s, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("a file's address is %v, not a string", tok)
		}
		if *n++; *n > MaxLinks {
			return nil, &TooManyError{Limit: MaxLinks}
		}
		urls = append(urls, s)
	}
	return urls, expect(dec, ']')
}

// expect reads the delimiter d.
func expect(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return fmt.Errorf("expected %v, found %v", d, tok)
	}
	return nil
}

// trailing fails when something follows the listing's value.
func trailing(dec *json.Decoder) error {
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("something follows the listing")
	}
	return nil
}
