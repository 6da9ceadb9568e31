package open

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
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/viewstate"
)

// DownloadLimit is the largest file tensorview downloads whole from a server
// that does not honour HTTP Range (the browser keeps it as a Blob).
const DownloadLimit = 2 << 30

// OpenURL opens the file at raw (absolute or relative to the page): by
// HTTP Range requests when the server honours them, else by one streaming
// download (progress, Cancel, at most DownloadLimit bytes). The source it
// fetches comes back as actionOpen with this open's number, which open
// drops when another file was asked for meanwhile.
func (op *Opener) OpenURL(ctx app.Context, raw string) {
	if params, ok := viewstate.DatasetParams(raw); ok {
		op.openDatasetLink(ctx, raw, params)
		return
	}
	u, err := remote.CheckURL(raw, app.Window().URL().String())
	if err != nil {
		browser.ReleaseBoot() // web/boot.js's requests for the link: none is taken
		op.Status.FailedOn(raw, err.Error())
		ctx.Update()
		return
	}
	addr, name := u.String(), remote.FileName(u)
	op.StopIndexing()
	op.opens++
	gen := op.opens
	op.Status.Reading(name)
	octx, cancel := context.WithCancel(context.Background())
	op.Work.Task, op.Work.Cancel = TaskDownload, cancel
	ctx.Update()
	fail := op.urlFailed(ctx, gen)
	ctx.Async(func() {
		defer func() { // a bug here must not take the page down
			if p := recover(); p != nil {
				fail(fmt.Errorf("tensorview failed opening %s: %v", addr, p))
			}
		}()
		op.fetchURL(ctx, octx, gen, name, addr, fail)
	})
}

// urlFailed is how open number gen, of a file by URL, fails (called from
// any goroutine): the page says why, unless another open overtook it.
// What web/boot.js fetched for the link and the app did not take is
// dropped.
func (op *Opener) urlFailed(ctx app.Context, gen int) func(error) {
	return func(err error) {
		ctx.Dispatch(func(ctx app.Context) {
			browser.ReleaseBoot()
			if gen != op.opens {
				return
			}
			op.Work.Progress, op.Work.Cancel = nil, nil
			if errors.Is(err, context.Canceled) {
				op.Status.Failed("the download was cancelled")
				return
			}
			op.Status.Failed(err.Error())
		})
	}
}

// fetchURL probes the file at addr, then sends actionOpen with a source
// over HTTP Range, or with the Blob of a whole download when the server
// ignores Range. It blocks: run it in ctx.Async.
func (op *Opener) fetchURL(ctx app.Context, octx context.Context, gen int, name, addr string, fail func(error)) {
	r, resp, err := remote.Open(octx, browser.Fetcher{}, addr, remote.Options{})
	switch {
	case errors.Is(err, remote.ErrNoRange):
		blob, err := op.download(ctx, octx, name, addr, resp)
		if err != nil {
			fail(err)
			return
		}
		src := BlobSource(name, blob)
		src.URL, src.gen = addr, gen
		ActionOpen.Send(ctx, src)
	case err != nil:
		fail(err)
	default:
		watched := &changeWatch{r: r, onChange: func(err error) { ActionChanged.Send(ctx, err.Error()) }}
		ActionOpen.Send(ctx, source{Name: name, Size: r.Size(), Reader: watched, URL: addr, Close: r.Close, gen: gen})
	}
}

// download reads a whole file from a server that ignored the Range header,
// showing its progress. It blocks: run it in ctx.Async.
func (op *Opener) download(ctx app.Context, octx context.Context, name, addr string, resp *remote.Response) (app.Value, error) {
	if resp.ContentLength > DownloadLimit {
		resp.Body.Close()
		return app.Null(), TooBig(addr, resp.ContentLength)
	}
	label := "Downloading " + name + " whole (the server does not honour HTTP Range)"
	ActionProgress.Send(ctx, &session.Progress{Label: label, Total: max(resp.ContentLength, 0)})
	var got atomic.Int64 // bytes received, stored by the download
	stop := make(chan struct{})
	defer close(stop) // ends reportDownload
	go reportDownload(ctx, label, resp.ContentLength, &got, stop)
	blob, err := browser.Download(resp, DownloadLimit, got.Store)
	if errors.Is(err, browser.ErrTooBig) {
		return app.Null(), TooBig(addr, resp.ContentLength)
	}
	if err != nil && octx.Err() != nil {
		return app.Null(), octx.Err()
	}
	return blob, err
}

// reportDownload shows the bytes received (got) of a download of length
// bytes (-1: unknown) every downloadReport while they change, so a
// download that stalls shows how far it got, until stop is closed.
func reportDownload(ctx app.Context, label string, length int64, got *atomic.Int64, stop <-chan struct{}) {
	tick := time.NewTicker(downloadReport)
	defer tick.Stop()
	shown := int64(0)
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			if done := got.Load(); done != shown {
				shown = done
				ActionProgress.Send(ctx, &session.Progress{Label: label, Done: done, Total: max(length, done)})
			}
		}
	}
}

// downloadReport is how often a download's progress bar moves at most.
const downloadReport = 100 * time.Millisecond

// TooBig is the error of a file at addr, of length bytes (≤ 0: unknown),
// too big to be downloaded whole.
func TooBig(addr string, length int64) error {
	size := "more than " + decode.HumanBytes(DownloadLimit)
	if length > 0 {
		size = decode.HumanBytes(length)
	}
	return fmt.Errorf("the server of %s does not honour HTTP Range requests, so the file would have to be downloaded whole, "+
		"and it is %s: more than the %s tensorview downloads. Serve it from a host that honours Range "+
		"(GitHub Pages, S3, nginx, Apache, Caddy do), or download it and open it from disk", addr, size, decode.HumanBytes(DownloadLimit))
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
