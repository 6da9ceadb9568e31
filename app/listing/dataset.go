package listing

import (
	"net/url"
	"regexp"
	"strings"
)

// DefaultHub is the Hugging Face Hub's address, the default of hub=.
const DefaultHub = "https://huggingface.co"

// datasetPart is one part of a dataset id as the Hub accepts it
// (huggingface_hub's validate_repo_id: letters, digits, "_", "-" and ".",
// starting and ending with a letter, digit or "_", at most 96 for the
// name; no "--" or "..").
var datasetPart = regexp.MustCompile(`^[A-Za-z0-9_]([A-Za-z0-9_.-]{0,94}[A-Za-z0-9_])?$`)

// CheckDataset reports whether id names a Hugging Face dataset: "owner/name"
// or "name".
func CheckDataset(id string) error {
	bad := &DatasetError{Input: id, Reason: "a Hugging Face dataset name: write owner/name (as in the address of its page, such as ibm/duorc) or name"}
	parts := strings.Split(id, "/")
	if len(parts) > 2 || strings.Contains(id, "--") || strings.Contains(id, "..") || strings.HasSuffix(id, ".git") {
		return bad
	}
	for _, p := range parts {
		if !datasetPart.MatchString(p) {
			return bad
		}
	}
	return nil
}

// HubOrigin checks hub= (an http: or https: address, such as a company
// mirror of the Hub; a path is kept, a trailing slash dropped) and returns
// it, or DefaultHub when hub is "".
func HubOrigin(hub string) (string, error) {
	hub = strings.TrimSpace(hub)
	if hub == "" {
		return DefaultHub, nil
	}
	u, err := url.Parse(hub)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", &DatasetError{Input: hub, Reason: "the http: or https: address of a Hugging Face Hub (such as https://huggingface.co)"}
	}
	return strings.TrimSuffix(u.Scheme+"://"+u.Host+u.EscapedPath(), "/"), nil
}

// Ref is a dataset as a person may give it: its Hub ("" for the default),
// its id, and optionally a config and split.
type Ref struct {
	Hub, Dataset, Config, Split string
}

// repoPages are the path segments after a dataset's id on its pages.
var repoPages = map[string]bool{"viewer": true, "tree": true, "blob": true, "resolve": true, "discussions": true, "commits": true, "settings": true}

// ParseDataset reads a dataset as typed in a field: "owner/name", "name",
// "datasets/owner/name", or the address of one of its pages, such as
// https://huggingface.co/datasets/owner/name or its viewer's
// …/viewer/<config>/<split> (the Hub and the config and split are taken
// from it).
func ParseDataset(s string) (Ref, error) {
	s = strings.TrimSpace(s)
	var ref Ref
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Ref{}, &DatasetError{Input: s, Reason: "the address of a Hugging Face dataset"}
		}
		ref.Hub = u.Scheme + "://" + u.Host
		s = strings.Trim(u.Path, "/")
		if !strings.HasPrefix(s, "datasets/") {
			return Ref{}, &DatasetError{Input: u.String(), Reason: "the address of a Hugging Face dataset (…/datasets/owner/name)"}
		}
	}
	s = strings.TrimPrefix(strings.Trim(s, "/"), "datasets/")
	if ref.Hub == "" { // not an address: the id itself
		if err := CheckDataset(s); err != nil {
			return Ref{}, err
		}
		ref.Dataset = s
		return ref, nil
	}
	segs := strings.Split(s, "/")
	n := min(2, len(segs))
	if n == 2 && repoPages[segs[1]] {
		n = 1
	}
	ref.Dataset = strings.Join(segs[:n], "/")
	if rest := segs[n:]; len(rest) >= 2 && rest[0] == "viewer" {
		ref.Config = rest[1]
		if len(rest) >= 3 {
			ref.Split = rest[2]
		}
	}
	if err := CheckDataset(ref.Dataset); err != nil {
		return Ref{}, err
	}
	return ref, nil
}
