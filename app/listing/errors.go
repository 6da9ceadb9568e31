package listing

import (
	"fmt"
	"strings"
	"time"
)

// ListError is a listing (a list of links, or the Hub's answer) that is
// not one tensorview reads.
type ListError struct {
	URL    string // the list's address
	Reason string
}

func (e *ListError) Error() string {
	return fmt.Sprintf("the list of files at %s cannot be read: %s", e.URL, e.Reason)
}

// TooManyError is a listing of more than Limit files.
type TooManyError struct {
	URL   string
	Limit int
}

func (e *TooManyError) Error() string {
	return fmt.Sprintf("%s lists more than %s files, more than tensorview opens as one table: list fewer", e.URL, thousands(e.Limit))
}

// DatasetError is a Hugging Face dataset name, or hub= address, that is
// not one.
type DatasetError struct {
	Input  string
	Reason string
}

func (e *DatasetError) Error() string {
	return fmt.Sprintf("%q is not %s", e.Input, e.Reason)
}

// AccessError is the Hub refusing a dataset that exists but needs a login
// (a gated dataset, HTTP 401 GatedRepo; or HTTP 403).
type AccessError struct {
	Hub, Dataset string
	Status       int
	Gated        bool
	Server       string // what the Hub said, as text ("" when nothing)
}

func (e *AccessError) Error() string {
	var b strings.Builder
	if e.Gated {
		fmt.Fprintf(&b, "the Hugging Face dataset %q is gated: reading it needs a Hugging Face login, which tensorview does not send. "+
			"Open a public dataset, or accept its conditions at %s, download its Parquet files and drop them on this page", e.Dataset, datasetPage(e.Hub, e.Dataset))
	} else {
		fmt.Fprintf(&b, "the Hugging Face Hub at %s refused to list %q (HTTP %d): it needs a Hugging Face login, which tensorview does not send. "+
			"Open a public dataset, or download its Parquet files and drop them on this page", e.Hub, e.Dataset, e.Status)
	}
	if e.Server != "" {
		fmt.Fprintf(&b, " (the Hub says: %q)", cut(e.Server))
	}
	return b.String()
}

// NotFoundError is a dataset, config or split the Hub does not have.
// Config and Split are "" when the dataset itself was not found;
// MaybePrivate when the Hub's answer (HTTP 401) does not tell a missing
// dataset from a private or gated one. Available is what the dataset has,
// when known.
type NotFoundError struct {
	Hub, Dataset  string
	Config, Split string
	MaybePrivate  bool
	Available     []Subset
}

func (e *NotFoundError) Error() string {
	switch {
	case e.Config == "" && e.Split == "":
		s := fmt.Sprintf("the Hugging Face dataset %q was not found on %s", e.Dataset, e.Hub)
		if e.MaybePrivate {
			return s + ", or it is private or gated and needs a Hugging Face login, which tensorview does not send: " +
				"check its name (owner/name, as in the address of its page), or download its Parquet files and drop them on this page"
		}
		return s + ": check its name (owner/name, as in the address of its page)"
	case e.Available == nil:
		return fmt.Sprintf("the Hugging Face dataset %q has no Parquet files for config %q, split %q", e.Dataset, e.Config, e.Split)
	}
	c, ok := findSubset(e.Available, e.Config)
	if !ok {
		parts := make([]string, len(e.Available))
		for i, s := range e.Available {
			parts[i] = fmt.Sprintf("%q (%s %s)", s.Config, either(len(s.Splits), "split", "splits"), names(s.Splits))
		}
		if len(parts) > 10 {
			parts = append(parts[:10], fmt.Sprintf("%d more", len(parts)-10))
		}
		return fmt.Sprintf("the Hugging Face dataset %q has no config %q: %s %s", e.Dataset, e.Config,
			either(len(e.Available), "its config is", "its configs are"), joinAnd(parts))
	}
	return fmt.Sprintf("the config %q of the Hugging Face dataset %q has no split %q: %s %s", e.Config, e.Dataset, e.Split,
		either(len(c.Splits), "its split is", "its splits are"), names(c.Splits))
}

// RateLimitError is the Hub answering HTTP 429. RetryAfter is 0 when the
// Hub's Retry-After is not visible to the page.
type RateLimitError struct {
	Hub        string
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	wait := "a few minutes"
	if e.RetryAfter > 0 {
		wait = e.RetryAfter.Round(time.Second).String()
		if s := int(e.RetryAfter.Round(time.Second).Seconds()); s < 120 {
			wait = plural(s, "second", "seconds")
		}
	}
	return fmt.Sprintf("the Hugging Face Hub at %s has had too many requests from this browser (HTTP 429): wait %s and try again", e.Hub, wait)
}

// NoParquetError is a dataset with no Parquet conversion.
type NoParquetError struct {
	Hub, Dataset string
}

func (e *NoParquetError) Error() string {
	return fmt.Sprintf("the Hugging Face dataset %q has no Parquet files on %s: the Hub converts datasets to Parquet "+
		"(its refs/convert/parquet branch) after they are uploaded, and some cannot be converted. Try again later, "+
		"or download its files and drop them on this page", e.Dataset, e.Hub)
}

// datasetPage is the address of a dataset's page on hub.
func datasetPage(hub, id string) string { return hub + "/datasets/" + id }

// plural is "n word" with the word for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// either is one when n is 1, else many.
func either(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// names is the quoted names, joined with "and", the first 10 only.
func names(list []string) string {
	q := make([]string, 0, min(len(list), 11))
	for i, s := range list {
		if i == 10 {
			q = append(q, fmt.Sprintf("%d more", len(list)-10))
			break
		}
		q = append(q, fmt.Sprintf("%q", s))
	}
	return joinAnd(q)
}

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// thousands writes n with thousands separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
