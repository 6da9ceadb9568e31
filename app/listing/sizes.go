package listing

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/tensorview/tensorview/app/remote"
)

// treeEntry is an entry of the Hub's tree listing.
type treeEntry struct {
	Type string `json:"type"`
	Size int64  `json:"size"`
	Path string `json:"path"`
}

// maxTreePages bounds the pages HubSizes follows (the Hub's pages hold
// 1,000 entries).
const maxTreePages = MaxLinks/1000 + 10

// HubSizes fills the sizes of l's shards from the Hub's tree listing of
// its split on refs/convert/parquet (GET <hub>/api/datasets/<dataset>/tree/
// refs%2Fconvert%2Fparquet/<config>/<split>, or …/partial-<split> for a
// split converted in part), following its pages (the Link header's
// rel="next", exposed to pages by huggingface.co). A shard listed as
// <n>.parquet is the tree's <nnnn>.parquet. Shards it does not find keep
// the size -1. Its errors are Hub's; the shards keep what it found before.
func HubSizes(ctx context.Context, f remote.Fetcher, l *HubListing) error {
	index := map[int]int{} // shard number → index in l.Shards
	for i, s := range l.Shards {
		if n, ok := shardNumber(s.URL); ok {
			index[n] = i
		}
	}
	if len(index) == 0 {
		return nil
	}
	dir := l.Hub + "/api/datasets/" + l.Dataset + "/tree/refs%2Fconvert%2Fparquet/" + url.PathEscape(l.Config) + "/"
	u := dir + url.PathEscape(l.Split)
	entries, next, err := treePage(ctx, f, l, u)
	var nf *NotFoundError
	if errors.As(err, &nf) { // a split converted in part is in partial-<split>
		u = dir + url.PathEscape("partial-"+l.Split)
		entries, next, err = treePage(ctx, f, l, u)
	}
	for page := 1; ; page++ {
		if err != nil {
			return err
		}
		for _, e := range entries {
			if n, ok := shardNumber(e.Path); ok && e.Type == "file" {
				if i, ok := index[n]; ok {
					l.Shards[i].Size = e.Size
				}
			}
		}
		if next == "" || next == u || page == maxTreePages {
			return nil
		}
		u = next
		entries, next, err = treePage(ctx, f, l, u)
	}
}

// shardNumberPattern is a shard's file name: <n>.parquet.
var shardNumberPattern = regexp.MustCompile(`^([0-9]{1,9})\.parquet$`)

// shardNumber is the n of an address or path ending in <n>.parquet.
func shardNumber(s string) (int, bool) {
	if u, err := url.Parse(s); err == nil {
		s = u.Path
	}
	m := shardNumberPattern.FindStringSubmatch(path.Base(s))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// treePage GETs a page of the tree listing: its entries and the next
// page's address ("" for none).
func treePage(ctx context.Context, f remote.Fetcher, l *HubListing, u string) ([]treeEntry, string, error) {
	resp, err := f.Fetch(ctx, remote.Request{URL: u, Get: true})
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	if resp.Status != 200 {
		return nil, "", hubError(l, u, resp)
	}
	var entries []treeEntry
	if err := json.NewDecoder(io.LimitReader(resp.Body, MaxListingBytes)).Decode(&entries); err != nil {
		return nil, "", &ListError{URL: u, Reason: "not the Hub's tree listing: " + err.Error()}
	}
	next := nextLink(resp.Get("Link"))
	if next != "" {
		base, _ := url.Parse(u)
		ref, err := url.Parse(next)
		if err != nil {
			return entries, "", nil
		}
		next = base.ResolveReference(ref).String()
	}
	return entries, next, nil
}

// nextLink is the rel="next" address of a Link header (RFC 8288), "" when
// none.
func nextLink(h string) string {
	for _, link := range strings.Split(h, ",") {
		target, params, ok := strings.Cut(link, ";")
		target = strings.TrimSpace(target)
		if !ok || !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
			continue
		}
		for _, p := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(k, "rel") && strings.EqualFold(strings.Trim(v, `"`), "next") {
				return target[1 : len(target)-1]
			}
		}
	}
	return ""
}
