package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/browser"
	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/remote"
)

// DownloadLimit is the largest file tensorview downloads whole from a server
// that does not honour HTTP Range (the browser keeps it as a Blob).
const DownloadLimit = 2 << 30

// Actions of files by URL.
const (
	actionOpenURL  = "tv/open-url" // value: the address as typed or in ?url=
	actionProgress = "tv/progress" // value: *progress of the download under way
	actionChanged  = "tv/changed"  // value: the error (the file changed on the server)
)

// openURL opens the file at raw (absolute or relative to the page): by
// HTTP Range requests when the server honours them, else by one streaming
// download (progress, Cancel, at most DownloadLimit bytes).
func (v *Viewer) openURL(ctx app.Context, raw string) {
	u, err := remote.CheckURL(raw, app.Window().URL().String())
	if err != nil {
		v.state, v.loading, v.errText = stateError, raw, err.Error()
		ctx.Update()
		return
	}
	addr, name := u.String(), remote.FileName(u)
	v.stopIndexing()
	v.opens++
	gen := v.opens
	v.state, v.loading, v.errText = stateLoading, name, ""
	octx, cancel := context.WithCancel(context.Background())
	v.cancel, v.task = cancel, "download"
	ctx.Update()
	fail := func(err error) {
		ctx.Dispatch(func(ctx app.Context) {
			if gen != v.opens {
				return
			}
			v.progress, v.cancel = nil, nil
			if errors.Is(err, context.Canceled) {
				v.state, v.errText = stateError, "the download was cancelled"
				return
			}
			v.state, v.errText = stateError, err.Error()
		})
	}
	ctx.Async(func() {
		defer func() { // a bug here must not take the page down
			if p := recover(); p != nil {
				fail(fmt.Errorf("tensorview failed opening %s: %v", addr, p))
			}
		}()
		r, resp, err := remote.Open(octx, browser.Fetcher{}, addr, remote.Options{})
		switch {
		case errors.Is(err, remote.ErrNoRange):
			blob, err := v.download(ctx, octx, name, addr, resp)
			if err != nil {
				fail(err)
				return
			}
			src := blobSource(name, blob)
			src.URL, src.gen = addr, gen
			ctx.NewActionWithValue(actionOpen, src)
		case err != nil:
			fail(err)
		default:
			watched := &changeWatch{r: r, onChange: func(err error) { ctx.NewActionWithValue(actionChanged, err.Error()) }}
			ctx.NewActionWithValue(actionOpen, source{Name: name, Size: r.Size(), Reader: watched, URL: addr, Close: r.Close, gen: gen})
		}
	})
}

// download reads a whole file from a server that ignored the Range header,
// showing its progress.
func (v *Viewer) download(ctx app.Context, octx context.Context, name, addr string, resp *remote.Response) (app.Value, error) {
	tooBig := func() error {
		size := "more than " + decode.HumanBytes(DownloadLimit)
		if resp.ContentLength > 0 {
			size = decode.HumanBytes(resp.ContentLength)
		}
		return fmt.Errorf("the server of %s does not honour HTTP Range requests, so the file would have to be downloaded whole, "+
			"and it is %s: more than the %s tensorview downloads. Serve it from a host that honours Range "+
			"(GitHub Pages, S3, nginx, Apache, Caddy do), or download it and open it from disk", addr, size, decode.HumanBytes(DownloadLimit))
	}
	if resp.ContentLength > DownloadLimit {
		resp.Body.Close()
		return app.Null(), tooBig()
	}
	label := "Downloading " + name + " whole (the server does not honour HTTP Range)"
	ctx.NewActionWithValue(actionProgress, &progress{Label: label, Total: max(resp.ContentLength, 0)})
	// The bar shows the bytes received every 100 ms while they change, so
	// a download that stalls shows how far it got.
	var got atomic.Int64
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		shown := int64(0)
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if done := got.Load(); done != shown {
					shown = done
					ctx.NewActionWithValue(actionProgress, &progress{Label: label, Done: done, Total: max(resp.ContentLength, done)})
				}
			}
		}
	}()
	blob, err := browser.Download(resp, DownloadLimit, got.Store)
	if errors.Is(err, browser.ErrTooBig) {
		return app.Null(), tooBig()
	}
	if err != nil && octx.Err() != nil {
		return app.Null(), octx.Err()
	}
	return blob, err
}

// changeWatch reports the first read that finds the file changed on the
// server (remote.ErrChanged), so the page can say so once.
type changeWatch struct {
	r        io.ReaderAt
	onChange func(error)
	once     sync.Once
}

// ReadAt implements io.ReaderAt.
func (c *changeWatch) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	if errors.Is(err, remote.ErrChanged) {
		c.once.Do(func() { c.onChange(err) })
	}
	return n, err
}

// urlQuery is the page's address with the url parameter set to addr.
func urlQuery(addr string) string {
	q := url.Values{}
	q.Set("url", addr)
	return "?" + q.Encode()
}
