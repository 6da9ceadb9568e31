package remote_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/tensorview/tensorview/app/remote"
	"github.com/tensorview/tensorview/internal/corsfetch"
	"github.com/tensorview/tensorview/internal/hubfake"
)

// hubShard is a fake Hub holding one 1 MiB shard of owner/ds, its bytes,
// and the address the Hub's listing gives for it.
func hubShard(t *testing.T, opt hubfake.Options) (*hubfake.Fake, []byte, string) {
	data := make([]byte, 1<<20+123)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	f := hubfake.Start(t, opt) // violations (preflights, suffix ranges, headers) fail the test
	if err := f.Add("owner/ds", hubfake.Dataset{Configs: []hubfake.Config{{Name: "default",
		Splits: []hubfake.Split{{Name: "train", Files: []hubfake.File{{Data: data}}}}}}}); err != nil {
		t.Fatal(err)
	}
	return f, data, f.FileURL("owner/ds", "default", "train", 0)
}

// counts is what the fake Hub was asked: listed addresses, resolve
// addresses, CDN requests, refused expired ones.
func counts(f *hubfake.Fake) [4]int {
	return [4]int{f.Count(hubfake.APIFile), f.Count(hubfake.Resolve), f.Count(hubfake.CDN), f.Count(hubfake.Expired)}
}

// readAt reads n bytes at off and checks them against data.
func readAt(t *testing.T, r *remote.Reader, data []byte, off, n int64) {
	t.Helper()
	p := make([]byte, n)
	if _, err := r.ReadAt(p, off); err != nil || !bytes.Equal(p, data[off:off+n]) {
		t.Fatalf("ReadAt(%d, %d): %v, equal %v", n, off, err, bytes.Equal(p, data[off:off+n]))
	}
}

// TestRedirectFollowedOnce: a shard's listed address redirects (to the
// resolve address, then to a signed CDN address); Open follows it once,
// and every later read goes to the CDN address: N reads are 1 resolve and
// 1 + N CDN requests. After the signed address expires, the next read is
// refused once, resolves once more, and the reads after it use the new
// address. No preflight, no suffix range, no custom header (hubfake fails
// the test on any).
func TestRedirectFollowedOnce(t *testing.T) {
	f, data, listed := hubShard(t, hubfake.Options{Expiry: time.Hour})
	// Block reads only, each in a block not read before.
	r, _, err := remote.Open(context.Background(), &corsfetch.Fetcher{}, listed, remote.Options{Block: 64 << 10, Exact: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Size() != int64(len(data)) {
		t.Fatalf("size %d", r.Size())
	}
	if got := counts(f); got != [4]int{1, 1, 1, 0} {
		t.Fatalf("Open: %v", got)
	}
	const n = 6
	for i := range n {
		readAt(t, r, data, int64(i+1)*128<<10, 32<<10)
	}
	if got := counts(f); got != [4]int{1, 1, 1 + n, 0} {
		t.Errorf("%d reads: %v, want [1 1 %d 0]", n, got, 1+n)
	}
	f.Advance(time.Hour + time.Second)
	readAt(t, r, data, 900<<10, 32<<10)
	if got := counts(f); got != [4]int{2, 2, 3 + n, 1} {
		t.Errorf("after expiry: %v, want [2 2 %d 1]", got, 3+n)
	}
	readAt(t, r, data, 1000<<10, 10<<10)
	if got := counts(f); got != [4]int{2, 2, 4 + n, 1} {
		t.Errorf("the read after: %v, want [2 2 %d 1]", got, 4+n)
	}
	if s := r.Stats(); s.Resolves != 1 {
		t.Errorf("Stats.Resolves %d", s.Resolves)
	}
}

// TestRedirectConcurrentExpiry: reads refused at once after the expiry
// share one new resolution.
func TestRedirectConcurrentExpiry(t *testing.T) {
	f, data, listed := hubShard(t, hubfake.Options{Expiry: time.Minute})
	r, _, err := remote.Open(context.Background(), &corsfetch.Fetcher{}, listed, remote.Options{Block: 64 << 10, Exact: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f.Advance(2 * time.Minute)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { readAt(t, r, data, int64(i+2)*64<<10, 1000) })
	}
	wg.Wait()
	if got := f.Count(hubfake.Resolve); got != 2 {
		t.Errorf("%d resolves, want 2 (Open's and one after the expiry)", got)
	}
}

// TestRedirectSecondFailure: when the listed address fails too after the
// CDN refused a read (the dataset became gated), the read fails with that
// failure, named by the listed address; a CDN whose 403 has no CORS
// headers (a network error to a page) is resolved again too.
func TestRedirectSecondFailure(t *testing.T) {
	t.Run("gated", func(t *testing.T) {
		f, data, listed := hubShard(t, hubfake.Options{Expiry: time.Minute})
		r, _, err := remote.Open(context.Background(), &corsfetch.Fetcher{}, listed, remote.Options{Block: 64 << 10, Exact: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		f.Add("owner/ds", hubfake.Dataset{Access: hubfake.Gated, Configs: []hubfake.Config{{Name: "default",
			Splits: []hubfake.Split{{Name: "train", Files: []hubfake.File{{Data: data}}}}}}})
		f.Advance(2 * time.Minute)
		_, err = r.ReadAt(make([]byte, 100), 500<<10)
		var se *remote.StatusError
		if !errors.As(err, &se) || se.Status != 401 || se.URL != listed {
			t.Errorf("error %v", err)
		}
		if got := counts(f); got != [4]int{2, 1, 2, 1} {
			t.Errorf("%v, want [2 1 2 1]", got)
		}
	})
	t.Run("no CORS on the 403", func(t *testing.T) {
		f, data, listed := hubShard(t, hubfake.Options{Expiry: time.Minute, CDNErrorsWithoutCORS: true})
		r, _, err := remote.Open(context.Background(), &corsfetch.Fetcher{}, listed, remote.Options{Block: 64 << 10, Exact: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		f.Advance(2 * time.Minute)
		readAt(t, r, data, 500<<10, 100)
		if got := counts(f); got != [4]int{2, 2, 3, 1} {
			t.Errorf("%v, want [2 2 3 1]", got)
		}
	})
}
