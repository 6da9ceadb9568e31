package hubfake

import (
	"bytes"
	"crypto/hmac"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"
)

// CDN is the handler of the file CDN's origin: the shards' bytes at signed,
// expiring addresses.
func (f *Fake) CDN() http.Handler { return http.HandlerFunc(f.serveCDN) }

func (f *Fake) serveCDN(w http.ResponseWriter, r *http.Request) {
	f.hit(r)
	f.countKind(CDN)
	if !f.check(w, r, "CDN") {
		return
	}
	cors := func() {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if f.opt.CDNExpose != "-" {
			w.Header().Set("Access-Control-Expose-Headers", f.opt.CDNExpose)
		}
	}
	refuse := func(msg string) {
		if !f.opt.CDNErrorsWithoutCORS {
			cors()
		}
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code><Message>"+msg+"</Message></Error>")
	}
	q := r.URL.Query()
	expires, err := strconv.ParseInt(q.Get("Expires"), 10, 64)
	f.mu.Lock()
	e := f.cdnFiles[r.URL.Path]
	valid := err == nil && e != nil && hmac.Equal([]byte(q.Get("Signature")), []byte(f.sign(r.URL.Path, expires)))
	expired := valid && f.now.Unix() > expires
	if expired {
		f.count(Expired)
	}
	f.mu.Unlock()
	switch {
	case !valid:
		refuse("Access denied")
		return
	case expired:
		refuse("Request has expired")
		return
	}
	cors()
	w.Header().Set("ETag", e.etag)
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", `inline; filename*=UTF-8''`+e.name()+`; filename="`+e.name()+`";`)
	w.Header().Set("Cache-Control", "public, max-age=31536000")
	w.Header().Set("X-Cache", "Hit from fake")
	var content io.ReadSeeker
	if e.file.Path != "" {
		file, err := os.Open(e.file.Path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer file.Close()
		content = file
	} else {
		content = bytes.NewReader(e.file.Data)
	}
	http.ServeContent(w, r, e.name(), time.Time{}, content)
}
