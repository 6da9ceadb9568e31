package main

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tensorview/tensorview/internal/hubfake"
	"github.com/tensorview/tensorview/internal/netshape"
)

// The dataset layout (BENCH_LAYOUTS=dataset): the first
// previews of a dataset of BENCH_SHARDS shards (20) of BENCH_SHARD_SIZE
// (100M) each against its first shard alone, by links. See the package
// comment.

const (
	layoutDataset = "dataset"
	// layoutShardParquet is the dataset's Parquet shard: the rows of the
	// Arrow shard in row groups of pqRowGroupRows (Hugging Face's for
	// image datasets), snappy (Hugging Face's default codec).
	layoutShardParquet = "shard-parquet"
)

// Ways of opening the dataset (BENCH_WAYS).
const (
	wayFirst = "first" // ?url=<the first shard>: the baseline
	wayURLs  = "url"   // ?url=<shard 0>&url=<shard 1>&…
	wayHub   = "hf"    // ?hf=bench/ds&hub=<the emulated Hub>
	wayList  = "urls"  // ?urls=<a text file of the shards' links>
)

var allWays = []string{wayFirst, wayURLs, wayHub, wayList}

// shardSet is one format's dataset: one file served under every shard's
// name (the shards' bytes are identical).
type shardSet struct {
	Format string    `json:"format"` // arrow or parquet
	File   benchFile `json:"file"`   // the one shard file
	N      int       `json:"shards"`
}

// ext is the shards' file name extension.
func (s *shardSet) ext() string {
	if s.Format == "parquet" {
		return "parquet"
	}
	return "arrow"
}

// shardName is the name of shard i of n, as Hugging Face datasets writes
// them: train-00000-of-00020.parquet.
func shardName(i, n int, ext string) string {
	return fmt.Sprintf("train-%05d-of-%05d.%s", i, n, ext)
}

// shardIndex is the shard number of name in a set of n shards with
// extension ext.
func shardIndex(name string, n int, ext string) (int, bool) {
	var i, of int
	var e string
	if k, err := fmt.Sscanf(name, "train-%05d-of-%05d.%s", &i, &of, &e); err != nil || k != 3 {
		return 0, false
	}
	if of != n || e != ext || i < 0 || i >= n || name != shardName(i, n, ext) {
		return 0, false
	}
	return i, true
}

// hubID is the emulated Hub's dataset of a format's shards.
func hubID(format string) string {
	if format == "parquet" {
		return "bench/ds"
	}
	return "bench/ds-arrow"
}

// snappyGrowth is how much bigger the Parquet shard is than the Arrow
// file of the same rows (measured: 696 rows, 104.8 MB of Arrow, 233.6 MB
// of Parquet): a uint8 is an INT32 in Parquet, and snappy keeps most of
// the three zero bytes of each.
const snappyGrowth = 2.23

// shardFiles writes (or reuses) the dataset's two shard files, each about
// BENCH_SHARD_SIZE: the Arrow file in record batches of 256 rows (the
// b256 layout's file) and a Parquet file of the first rows of the same.
func shardFiles(c config) ([]*shardSet, error) {
	a, err := plan(c.dir, c.shardSize, layoutB256)
	if err != nil {
		return nil, err
	}
	rows := max(1, int(float64(a.Rows)/snappyGrowth))
	p := benchFile{Size: c.shardSize, Layout: layoutShardParquet, Rows: rows, Version: genVersion,
		Batches: (rows + pqRowGroupRows - 1) / pqRowGroupRows, ChildLen: int64(min(rows, pqRowGroupRows)) * tensorBytes,
		Path: filepath.Join(c.dir, fmt.Sprintf("shard-%s-snappy.parquet", c.shardSize))}
	var out []*shardSet
	for _, f := range []benchFile{a, p} {
		start := time.Now()
		f, err := ensure(f, logf)
		if err != nil {
			return nil, err
		}
		if d := time.Since(start); d > time.Second {
			logf("  %.1f MB in %v", float64(f.Bytes)/1e6, d.Round(time.Second))
		}
		format := "arrow"
		if f.Layout == layoutShardParquet {
			format = "parquet"
		}
		out = append(out, &shardSet{Format: format, File: f, N: c.shards})
	}
	return out, nil
}

// dsServer serves the datasets: their shards and lists of links on the
// page's origins (benchMux mounts routes), the emulated Hub on two more.
// All of it is recorded by tl and behind the network shape.
type dsServer struct {
	sets  []*shardSet
	tl    *timeline
	shape *netshape.Link
	hub   *hubfake.Fake
	close func()
}

// startDatasets starts the emulated Hub (its API and its CDN on two local
// origins) with each set as a dataset of one split, default/train.
func startDatasets(c config, sets []*shardSet) (*dsServer, error) {
	ds := &dsServer{sets: sets, tl: &timeline{}, shape: &netshape.Link{Shape: c.net}}
	ds.hub = hubfake.New(hubfake.Options{Fail: func(msg string) { logf("emulated Hub: %s", msg) }})
	var servers []*http.Server
	var origins []string
	for _, h := range []http.Handler{ds.hub.API(), ds.hub.CDN()} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		srv := &http.Server{Handler: ds.tl.Wrap(ds.shape.Wrap(h))}
		go srv.Serve(ln)
		servers = append(servers, srv)
		origins = append(origins, "http://"+ln.Addr().String())
	}
	ds.close = func() {
		for _, s := range servers {
			s.Close()
		}
	}
	ds.hub.SetOrigins(origins[0], origins[1])
	for _, s := range sets {
		files := make([]hubfake.File, s.N)
		for i := range files {
			files[i] = hubfake.File{Path: s.File.Path} // the same bytes under every shard's name
		}
		d := hubfake.Dataset{Configs: []hubfake.Config{{Name: "default", Splits: []hubfake.Split{{Name: "train", Files: files}}}}}
		if err := ds.hub.Add(hubID(s.Format), d); err != nil {
			ds.close()
			return nil, err
		}
	}
	logf("emulated Hub: API at %s, CDN at %s; network: %s", origins[0], origins[1], c.net)
	return ds, nil
}

// routes mounts the shards and the lists of links on a page's mux:
// /bench/shards/<format>/train-0000i-of-0000n.<ext> (the one shard file,
// Range and CORS) and /bench/shards/<format>/list.txt (every shard's
// link on that origin, one a line).
func (ds *dsServer) routes(mux *http.ServeMux) {
	mux.Handle("/bench/shards/", ds.tl.Wrap(ds.shape.Wrap(http.HandlerFunc(ds.serveShard))))
}

func (ds *dsServer) serveShard(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Access-Control-Expose-Headers", "Content-Range, Content-Length, ETag")
	format, name, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/bench/shards/"), "/")
	for _, s := range ds.sets {
		if s.Format != format {
			continue
		}
		if name == "list.txt" {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			origin := "http://" + r.Host
			for i := range s.N {
				fmt.Fprintln(w, shardURL(origin, s, i))
			}
			return
		}
		if _, ok := shardIndex(name, s.N, s.ext()); ok {
			f, err := os.Open(s.File.Path)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			defer f.Close()
			info, err := f.Stat()
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			http.ServeContent(w, r, name, info.ModTime(), f)
			return
		}
	}
	http.NotFound(w, r)
}

// shardURL is shard i's address on origin.
func shardURL(origin string, s *shardSet, i int) string {
	return origin + "/bench/shards/" + s.Format + "/" + shardName(i, s.N, s.ext())
}

// link is the page address (its query) that opens s the way way on a page
// of origin.
func (ds *dsServer) link(origin string, s *shardSet, way string) string {
	q := url.Values{}
	switch way {
	case wayFirst:
		q.Set("url", shardURL(origin, s, 0))
	case wayURLs:
		for i := range s.N {
			q.Add("url", shardURL(origin, s, i))
		}
	case wayHub:
		q.Set("hf", hubID(s.Format))
		q.Set("hub", ds.hub.APIURL())
	case wayList:
		q.Set("urls", origin+"/bench/shards/"+s.Format+"/list.txt")
	}
	return q.Encode()
}

// wantRows is the exact row count the page should show once every shard
// of s that way opens is open.
func wantRows(s *shardSet, way string) int64 {
	if way == wayFirst {
		return int64(s.File.Rows)
	}
	return int64(s.File.Rows) * int64(s.N)
}

// parseShards reads BENCH_SHARDS: at least 2.
func parseShards(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 2 || n > 99999 {
		return 0, fmt.Errorf("want a count of shards from 2 to 99999, not %q", s)
	}
	return n, nil
}
