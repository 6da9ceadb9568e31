package remote

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	const page = "https://tensorview.github.io/tensorview/?url=x"
	for _, c := range []struct {
		raw, page, want, err string
		mixed                bool
	}{
		{raw: "https://example.org/data/a.arrow", page: page, want: "https://example.org/data/a.arrow"},
		{raw: "  samples/js_big.arrow ", page: page, want: "https://tensorview.github.io/tensorview/samples/js_big.arrow"},
		{raw: "/other/b.arrows", page: page, want: "https://tensorview.github.io/other/b.arrows"},
		{raw: "https://s3.example/a?X-Amz-Signature=abc#frag", page: page, want: "https://s3.example/a?X-Amz-Signature=abc"},
		{raw: "http://example.org/a.arrow", page: page, mixed: true},
		{raw: "http://localhost:8080/a.arrow", page: page, want: "http://localhost:8080/a.arrow"},
		{raw: "http://127.0.0.1:8080/a.arrow", page: page, want: "http://127.0.0.1:8080/a.arrow"},
		{raw: "http://127.9.8.7/a.arrow", page: page, want: "http://127.9.8.7/a.arrow"},
		{raw: "http://[::1]:8080/a.arrow", page: page, want: "http://[::1]:8080/a.arrow"},
		{raw: "http://[::ffff:127.0.0.1]/a.arrow", page: page, want: "http://[::ffff:127.0.0.1]/a.arrow"},
		{raw: "http://[::1%25lo]/a.arrow", page: page, mixed: true},
		{raw: "http://[::2]/a.arrow", page: page, mixed: true},
		{raw: "http://10.0.0.1/a.arrow", page: page, mixed: true},
		{raw: "http://example.org/a.arrow", page: "http://127.0.0.1:5000/", want: "http://example.org/a.arrow"},
		{raw: "", page: page, err: "no URL"},
		{raw: "javascript:alert(1)", page: page, err: "not an http: or https: address"},
		{raw: "data:application/octet-stream;base64,AAAA", page: page, err: "not an http: or https: address"},
		{raw: "file:///etc/passwd", page: page, err: "not an http: or https: address"},
		{raw: "https://exa mple.org/%zz", page: page, err: "is not a URL"},
		{raw: "https:///nohost", page: page, err: "has no host"},
	} {
		u, err := CheckURL(c.raw, c.page)
		var mixed *MixedContentError
		switch {
		case c.mixed:
			if !errors.As(err, &mixed) {
				t.Errorf("CheckURL(%q): %v, want a MixedContentError", c.raw, err)
			}
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("CheckURL(%q): %v, want an error with %q", c.raw, err, c.err)
			}
		case err != nil:
			t.Errorf("CheckURL(%q): %v", c.raw, err)
		case u.String() != c.want:
			t.Errorf("CheckURL(%q) = %s, want %s", c.raw, u, c.want)
		}
	}
}

func TestFileName(t *testing.T) {
	for raw, want := range map[string]string{
		"https://h.org/data/images%20v2.arrow?sig=1": "images v2.arrow",
		"https://h.org/data/":                        "data",
		"https://h.org/":                             "h.org",
		"https://h.org":                              "h.org",
		"https://h.org/api/download?id=7":            "download",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := FileName(u); got != want {
			t.Errorf("FileName(%s) = %q, want %q", raw, got, want)
		}
	}
}

func TestErrorTexts(t *testing.T) {
	cors := (&CORSError{URL: "https://files.example/a.arrow", Origin: "https://tensorview.github.io"}).Error()
	for _, want := range []string{"files.example", "Access-Control-Allow-Origin: https://tensorview.github.io"} {
		if !strings.Contains(cors, want) {
			t.Errorf("CORSError says %q, want it to name %q", cors, want)
		}
	}
	if s := (&NetworkError{URL: "u", Offline: true}).Error(); !strings.Contains(s, "offline") {
		t.Errorf("offline NetworkError says %q", s)
	}
	if s := (&StatusError{URL: "u", Status: 404}).Error(); !strings.Contains(s, "not found") {
		t.Errorf("404 says %q", s)
	}
}
