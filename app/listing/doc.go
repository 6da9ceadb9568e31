// Package listing turns what names a dataset into the list of its files:
// a Hugging Face dataset (through the Hub's API), a list of links, and the
// order files are shown in. It is pure Go: requests go through a
// remote.Fetcher (the browser's fetch in the page, net/http natively), as
// plain GETs without any header (no login is ever sent).
//
// Entry points:
//
//   - Hub: the Parquet shards (address, name, size when known) of a split
//     of a Hugging Face dataset, listed by GET <hub>/api/datasets/<id>/parquet
//     [/<config>/<split>], picking config "default" and split "train" (else
//     the first) when not given; its errors are typed and worded for users
//     (*NotFoundError, *AccessError, *RateLimitError, *NoParquetError,
//     *DatasetError, *ListError, *TooManyError). HubSizes then fills the
//     shards' sizes from the Hub's tree listing, page by page.
//   - CheckDataset, HubOrigin, ParseDataset: a dataset id (owner/name or
//     name), a hub= address (default DefaultHub), a dataset as typed or
//     pasted (an id, or the address of its page or viewer).
//   - URLList: the links of a list of links (?urls=): a JSON array of
//     strings or text with one link per line, resolved against the list's
//     address, deduplicated, at most MaxLinks, bad entries reported apart.
//   - NaturalLess, SortNatural: file names in natural order (part-2
//     before part-10).
package listing
