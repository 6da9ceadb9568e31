package listing

import (
	"fmt"
	"strings"
	"testing"
)

// TestCheckDataset: ids the Hub accepts, and not.
func TestCheckDataset(t *testing.T) {
	for _, id := range []string{"ibm/duorc", "squad", "HuggingFaceFW/fineweb-edu", "a/b", "user_1/data.v2", "_x/y_", strings.Repeat("n", 96)} {
		if err := CheckDataset(id); err != nil {
			t.Errorf("%q: %v", id, err)
		}
	}
	for _, id := range []string{"", "/", "a/", "/b", "a/b/c", "a b", "a/-b", "a/b-", ".a/b", "a/b.", "a--b", "a/b..c", "a/b.git", "ü/x", "a/b?c", strings.Repeat("n", 97), "../x"} {
		if err := CheckDataset(id); err == nil {
			t.Errorf("%q was taken", id)
		}
	}
}

// TestHubOrigin: hub= addresses.
func TestHubOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"":                             "https://huggingface.co",
		" https://huggingface.co/ ":    "https://huggingface.co",
		"http://127.0.0.1:8080":        "http://127.0.0.1:8080",
		"https://mirror.example/hf/":   "https://mirror.example/hf",
		"https://mirror.example/a%20b": "https://mirror.example/a%20b",
	} {
		if got, err := HubOrigin(in); err != nil || got != want {
			t.Errorf("HubOrigin(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"huggingface.co", "ftp://h", "javascript:alert(1)", "https://u:p@h", "https://h/?q=1", "https:///x"} {
		if _, err := HubOrigin(in); err == nil {
			t.Errorf("HubOrigin(%q) was taken", in)
		}
	}
}

// TestParseDataset: datasets as typed or pasted.
func TestParseDataset(t *testing.T) {
	for in, want := range map[string]string{
		"ibm/duorc":          "{ ibm/duorc  }",
		" squad ":            "{ squad  }",
		"datasets/ibm/duorc": "{ ibm/duorc  }",
		"https://huggingface.co/datasets/ibm/duorc":                    "{https://huggingface.co ibm/duorc  }",
		"https://huggingface.co/datasets/ibm/duorc/":                   "{https://huggingface.co ibm/duorc  }",
		"https://huggingface.co/datasets/ibm/duorc/viewer/SelfRC/test": "{https://huggingface.co ibm/duorc SelfRC test}",
		"https://huggingface.co/datasets/ibm/duorc/viewer/SelfRC":      "{https://huggingface.co ibm/duorc SelfRC }",
		"https://huggingface.co/datasets/ibm/duorc/tree/main/data":     "{https://huggingface.co ibm/duorc  }",
		"https://huggingface.co/datasets/squad/viewer":                 "{https://huggingface.co squad  }",
		"http://127.0.0.1:9999/datasets/o/n?x=1#y":                     "{http://127.0.0.1:9999 o/n  }",
	} {
		ref, err := ParseDataset(in)
		if got := fmt.Sprint(ref); err != nil || got != want {
			t.Errorf("ParseDataset(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "a/b/c", "https://huggingface.co/ibm/duorc", "ftp://h/datasets/a/b", "https://huggingface.co/datasets/", "javascript://x/datasets/a"} {
		if ref, err := ParseDataset(in); err == nil {
			t.Errorf("ParseDataset(%q) = %v", in, ref)
		}
	}
}
