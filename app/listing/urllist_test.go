package listing

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestURLList: links of text and JSON lists, resolved against the list's
// address, each once, bad entries reported with their line.
func TestURLList(t *testing.T) {
	const base = "https://data.example/sets/list.txt?sig=1"
	for _, c := range []struct {
		name, body string
		links      []string
		bad        []string
	}{
		{"text", "# shards\n\npart-1.parquet\r\n  part-2.parquet  \n../other/part-3.arrow\nhttps://cdn.example/x.parquet#frag\n/root.parquet\n//host.example/p.parquet\n",
			[]string{"https://data.example/sets/part-1.parquet", "https://data.example/sets/part-2.parquet", "https://data.example/other/part-3.arrow",
				"https://cdn.example/x.parquet", "https://data.example/root.parquet", "https://host.example/p.parquet"}, nil},
		{"json", `["a.parquet", "b.parquet?x=1&y=2", "a.parquet", "./a.parquet", 3, {"url": "c"}, "javascript:alert(1)", "data:,x", "a b"]`,
			[]string{"https://data.example/sets/a.parquet", "https://data.example/sets/b.parquet?x=1&y=2"},
			[]string{`line 5, "3": not a string`, `line 6, "{\"url\": \"c\"}": not a string`, `line 7, "javascript:alert(1)": not an http: or https: link`,
				`line 8, "data:,x": not an http: or https: link`, `line 9, "a b": not a link (it holds spaces, control characters or <, >, ")`}},
		{"byte order mark, CRLF", "\ufeffhttp://h.example/1\r\nhttp://h.example/2\r\n", []string{"http://h.example/1", "http://h.example/2"}, nil},
		{"file: and a tab", "file:///etc/passwd\nx\ty\nok.parquet", []string{"https://data.example/sets/ok.parquet"},
			[]string{`line 1, "file:///etc/passwd": not an http: or https: link`, `line 2, "x\ty": not a link (it holds spaces, control characters or <, >, ")`}},
		{"whitespace around JSON", "\n  [\"x\"]  \n", []string{"https://data.example/sets/x"}, nil},
	} {
		links, bad, err := URLList([]byte(c.body), base)
		if err != nil || fmt.Sprint(links) != fmt.Sprint(c.links) || fmt.Sprint(bad) != fmt.Sprint(c.bad) {
			t.Errorf("%s: %v\n%q\n%q", c.name, err, links, bad)
		}
	}
}

// TestURLListErrors: what is not a list of links.
func TestURLListErrors(t *testing.T) {
	const base = "https://h.example/l.json"
	for _, c := range []struct{ body, want string }{
		{"", "the list of files at https://h.example/l.json cannot be read: it holds no link"},
		{"# only a comment\n\n", "it holds no link"},
		{"<!doctype html><p>Not found", "an HTML or XML page, not a JSON array of links or text with one link per line"},
		{`{"files": []}`, "a JSON object, not a JSON array"},
		{`["a", `, "not valid JSON"},
		{`["a"] ["b"]`, "something follows the array"},
		{`[1, 2]`, `it holds no link tensorview can open (line 1, "1": not a string)`},
		{"\xff\xfe", "not text (it is not UTF-8)"},
	} {
		_, _, err := URLList([]byte(c.body), base)
		var le *ListError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.body, err, c.want)
		}
	}
	if _, _, err := URLList([]byte("a"), "relative/list.txt"); err == nil {
		t.Error("a relative base was taken")
	}
	// The limit counts distinct links: duplicates past it are fine.
	var b strings.Builder
	for i := range MaxLinks {
		fmt.Fprintf(&b, "%d\n", i)
	}
	b.WriteString("0\n5\n")
	if links, _, err := URLList([]byte(b.String()), base); err != nil || len(links) != MaxLinks {
		t.Errorf("%d links: %v", len(links), err)
	}
	b.WriteString("one-more\n")
	var tm *TooManyError
	if _, _, err := URLList([]byte(b.String()), base); !errors.As(err, &tm) || err.Error() != base+" lists more than 100,000 files, more than tensorview opens as one table: list fewer" {
		t.Errorf("%v", err)
	}
}
