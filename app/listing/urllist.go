package listing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// MaxLinks is the most links a list of links (URLList) or a split of a
// Hugging Face dataset (Hub) may hold.
const MaxLinks = 100_000

// BadLink is an entry of a list of links that is not a link tensorview
// opens, skipped: at Line (1-based; the item's number in a JSON array),
// its text (cut to 200 bytes) and why.
type BadLink struct {
	Line   int
	Text   string
	Reason string
}

func (b BadLink) String() string {
	return fmt.Sprintf("line %d, %q: %s", b.Line, b.Text, b.Reason)
}

// URLList reads a list of links (the file ?urls= names): a JSON array of
// strings, or text with one link per line, where blank lines and lines
// starting with "#" are skipped. Links are resolved against base, the
// list's own address (so relative links name files beside it), without
// their fragment; only http: and https: links are kept (others are
// returned as bad, as are entries that are not links), each once, in the
// order of the list. It fails with a *ListError when body is not such a
// list (an HTML page, JSON that is not an array) or has no link, and with
// a *TooManyError past MaxLinks links.
func URLList(body []byte, base string) (links []string, bad []BadLink, err error) {
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() {
		return nil, nil, &ListError{URL: base, Reason: "the list's own address is not an absolute URL"}
	}
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	l := &linkList{base: b, seen: map[string]bool{}}
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		err = l.readJSON(trimmed)
	case len(trimmed) > 0 && (trimmed[0] == '<' || trimmed[0] == '{'):
		what := "an HTML or XML page"
		if trimmed[0] == '{' {
			what = "a JSON object"
		}
		return nil, nil, &ListError{URL: base, Reason: what + ", not a JSON array of links or text with one link per line"}
	case !utf8.Valid(trimmed):
		return nil, nil, &ListError{URL: base, Reason: "not text (it is not UTF-8)"}
	default:
		err = l.readLines(body)
	}
	if err != nil {
		return nil, nil, err
	}
	if len(l.links) == 0 {
		why := "it holds no link"
		if len(l.bad) > 0 {
			why = fmt.Sprintf("it holds no link tensorview can open (%s)", l.bad[0])
		}
		return nil, l.bad, &ListError{URL: base, Reason: why}
	}
	return l.links, l.bad, nil
}

// linkList gathers the links of a list.
type linkList struct {
	base  *url.URL
	seen  map[string]bool
	links []string
	bad   []BadLink
}

// readJSON reads a JSON array of strings, an item at a time.
func (l *linkList) readJSON(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if _, err := dec.Token(); err != nil { // the '['
		return &ListError{URL: l.base.String(), Reason: "not valid JSON: " + err.Error()}
	}
	for item := 1; dec.More(); item++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return &ListError{URL: l.base.String(), Reason: fmt.Sprintf("not valid JSON at item %d: %v", item, err)}
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			l.bad = append(l.bad, BadLink{Line: item, Text: cut(string(raw)), Reason: "not a string"})
			continue
		}
		if err := l.add(item, s); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the ']'
		return &ListError{URL: l.base.String(), Reason: "not valid JSON: " + err.Error()}
	}
	if dec.More() {
		return &ListError{URL: l.base.String(), Reason: "not valid JSON: something follows the array"}
	}
	return nil
}

// readLines reads text with a link per line.
func (l *linkList) readLines(body []byte) error {
	for i, line := range strings.Split(string(body), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if err := l.add(i+1, line); err != nil {
			return err
		}
	}
	return nil
}

// add resolves and keeps one link, or records it as bad.
func (l *linkList) add(line int, s string) error {
	link, why := resolveLink(l.base, s)
	switch {
	case why != "":
		l.bad = append(l.bad, BadLink{Line: line, Text: cut(s), Reason: why})
	case !l.seen[link]:
		if len(l.links) == MaxLinks {
			return &TooManyError{URL: l.base.String(), Limit: MaxLinks}
		}
		l.seen[link] = true
		l.links = append(l.links, link)
	}
	return nil
}

// resolveLink is s resolved against base without its fragment, or why it
// is not a link tensorview opens.
func resolveLink(base *url.URL, s string) (string, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "empty"
	}
	if strings.ContainsFunc(s, func(r rune) bool {
		return r <= ' ' || r == 0x7f || r == '<' || r == '>' || r == '"' || r == utf8.RuneError
	}) {
		return "", "not a link (it holds spaces, control characters or <, >, \")"
	}
	ref, err := url.Parse(s)
	if err != nil {
		return "", "not a link"
	}
	u := base.ResolveReference(ref)
	u.Fragment, u.RawFragment = "", ""
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", "not an http: or https: link"
	}
	if u.Host == "" {
		return "", "no host"
	}
	return u.String(), ""
}

// cut shortens s to 200 bytes at most, on a rune boundary.
func cut(s string) string {
	if len(s) <= 200 {
		return s
	}
	n := 200
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
