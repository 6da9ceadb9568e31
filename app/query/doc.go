// Package query is the engine of "sort, filter, search and column
// statistics": a small SQL-like filter language, its evaluation
// over Arrow record batches, sorting by a column or a tensor statistic,
// and column statistics. It is pure Go (no syscall/js) and reads no file:
// the caller hands it record batches holding the columns it Needs, and a
// Tensors reader for the tensor and image columns, whose rows only
// app/decode can read (dialect tensors, decoded pictures).
//
// Entry points:
//
//   - Parse (text → Expr, the syntax tree; Expr.String is the canonical
//     form links carry), ParseSort ("-mean(emb)" → SortKey), ParseOperand
//     ("mean(emb)" → Operand). Errors are *Error: the offending word's
//     byte offset and length, and what was expected.
//   - ColumnsOf (a schema → []Column; the caller marks dialect tensor and
//     image columns), Bind and Compile (Parse then Bind: the query
//     type-checked against the columns, → *Filter, errors as above).
//   - Filter.Needs, Filter.Batch (→ *BatchFilter, one batch's prepared
//     evaluation), BatchFilter.Range (rows [start, end) → Selection),
//     Filter.Eval (a whole batch), Matches (selections over a file).
//   - BindSort (→ *Sort), Sort.NewKeys (→ *Keys), Keys.Add/AddRange (the
//     key vector, batch after batch), Keys.Sort (→ Perm, the order).
//   - NewStats (→ *Stats), Stats.Add/AddRange/Merge, Stats.Summary;
//     Stats.Histogram, a second pass for an exact histogram. With
//     StatsOptions.Elements, a tensor or image column's statistics are of
//     its elements (Summary.Elements, inspect.ColumnStats: the inspector's
//     column panel), in Stats.Passes passes, NextPass between them.
//
// # Grammar
//
// Keywords and function names are case-insensitive; a column is named bare
// or in double quotes (exactly, else the one column equal but for case):
//
//	query     = or .
//	or        = and { "or" and } .
//	and       = not { "and" not } .
//	not       = "not" not | primary .
//	primary   = "(" or ")" | "search" "(" string ")" | predicate .
//	predicate = operand ( compare value
//	                    | "is" [ "not" ] "null"
//	                    | [ "not" ] "between" value "and" value
//	                    | [ "not" ] "in" "(" value { "," value } ")"
//	                    | [ "not" ] "contains" string
//	                    | [ "not" ] "starts" "with" string ) .
//	compare   = "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=" .
//	operand   = column | func "(" column ")" | "dim" "(" column "," ( string | digits ) ")" .
//	func      = "min" | "max" | "mean" | "std" | "nan" | "size" | "shape" | "width" | "height" .
//	column    = name | quoted .
//	value     = [ "-" ] number | string | "true" | "false" | list .
//	list      = "[" [ [ "-" ] digits { "," [ "-" ] digits } ] "]" .
//	sortkey   = [ "-" | "+" ] operand .
//	name      = ( letter | "_" ) { letter | digit | "_" } .  (no keyword)
//	quoted    = '"' { character | '""' } '"' .
//	string    = "'" { character | "''" } "'" .
//	number    = digits [ "." [ digits ] ] [ exponent ] | "." digits [ exponent ] .
//	exponent  = ( "e" | "E" ) [ "+" | "-" ] digits .
//
// The keywords, which a column of the same name must quote, are and, or,
// not, between, in, is, null, contains, starts, with, true and false.
// Precedence, loosest first: or, and, not, predicates. The canonical form
// flattens nested and/or, writes not's operand in parentheses, operators
// and keywords in lower case, numbers as written (e in lower case).
//
// # Meaning
//
//   - Three-valued logic, as SQL: a comparison with null is unknown, not
//     negates true and false but not unknown, and a row matches when the
//     whole query is true. So x != 3 and not (x = 3) leave out the nulls;
//     is null and is not null test them. search('t') is true when any
//     string column holds t, ignoring case, a null counting as not holding
//     it.
//   - Integers and decimals compare exactly with any number (i > 2.5 is
//     i >= 3; d = 1.005 on a scale-2 decimal matches nothing). A float
//     column compares with the literal cast to its type, as SQL does
//     (score = 0.9 on float32 matches float32(0.9)); NaN compares false
//     with everything, so it passes != and not: "NaN compares false except
//     !=".
//   - Strings compare byte-wise; contains and starts with ignore case
//     (Unicode simple folding, as strings.EqualFold). Booleans take =, !=
//     and in with true and false.
//   - Dates take 'YYYY-MM-DD'; timestamps also 'YYYY-MM-DD hh:mm[:ss[.f]]'
//     (or T for the space), with an optional zone Z or ±hh:mm; a literal
//     without zone is in the column's time zone (UTC for a naive one), so
//     ts > '2024-03-31 03:00' on a Europe/Paris column is Paris time. A
//     zone named by the zone database needs one: the page fetches Go's
//     (web/tzdata.zip) the first time a zone is looked up (tzdata_wasm.go,
//     internal/tzload), else such columns fail to bind ("unknown time
//     zone"). Times of day take 'hh:mm[:ss[.f]]'.
//     All compare exactly in the column's unit.
//   - Dictionaries are compared on their values, each dictionary tested
//     once per batch; a null entry is a null.
//   - Tensor functions apply to tensor and image columns: min, max, mean,
//     std (population) over the elements that are neither null nor NaN
//     (NaN when none is left), nan (the count of NaN), size (elements),
//     dim(x, 'name') or dim(x, i) (a logical dimension's size), shape(x)
//     (the logical shape, = != and in with lists), width and height (the
//     picture's, by app/picture's rule, or ImageSizes). A row whose tensor
//     cannot be read does not match, and is counted in
//     Selection.Unevaluated with the first error.
//
// # Sort
//
// Ascending or descending, stable, NaN after every number and nulls (and
// rows that could not be read) after those, in both directions. Keys.Add
// turns each value into an order-preserving unsigned key (4 bytes a row
// for types of 32 bits or fewer and for dictionaries, whose strings are
// ranked once; 8 for 64-bit types and tensor statistics; the bytes plus 16
// for strings and decimal128/256), plus 2 bits a row for null and NaN.
// Sort then moves the keys and 4-byte row numbers (8 past 2^32 rows) in
// place with an MSD radix ("American flag") sort, rows of equal keys
// ascending (radix-sorted too); strings by windows of 7 bytes and how many
// bytes remain, the runs equal in one window by the next (past 256 bytes,
// by comparisons). 10M float32 scores: 80 MB, 8 bytes a row, in all.
//
// # Statistics
//
// Count, nulls, NaN, distinct, min and max (exact text and number), mean
// (Neumaier-compensated sum), a histogram of numbers and the top values
// with counts, of a column or of a tensor function over the rows. Values
// are counted exactly up to StatsOptions.DistinctLimit (10,000) distinct
// ones; past that, distinct is a HyperLogLog estimate (hll.go, 2^14
// registers: 0.81 % standard error; within 0.5 % for 10^6 in the tests)
// and the top values a Misra–Gries summary of as many counters (counts
// short by at most rows/(limit+1)). HyperLogLog is written here (60
// lines): no sketch library is among the modules served to this project,
// and the hash, xxh3 for strings (github.com/zeebo/xxh3, already linked
// through arrow-go, so it adds nothing to the wasm) and MurmurHash3's
// finalizer for numbers, keeps estimates the same on every run. The
// histogram has fixed bins over [min, max]: exact from the counts while
// values are counted exactly, else estimated from a reservoir sample of
// 65,536 values (Summary.HistExact false), which one pass gives at once;
// Stats.Histogram is the second pass that counts exactly, for a column
// still in the cache.
//
// # Working in slices
//
// Go's wasm is one thread, and the page must not run a task over 50 ms:
// every step is small and resumable. A filter evaluates a batch in row
// ranges (Filter.Batch once, then BatchFilter.Range(ctx, start, end) as
// often as wanted: about 3 ns a row for label = 'cat' and score > 0.9);
// sort keys and statistics are added by ranges (AddRange), whose work is
// in proportion to their rows (a dictionary's entries are keyed once per
// dictionary, not per range). Each checks its context at its start and
// every 8,192 rows. Keys.Sort, the one step that needs the whole column,
// counts its work (keys read, moved or compared) and calls a Pacer at
// least every 128Ki elements of it: every pass over the rows goes in
// steps of 64Ki. In the browser the pacer sleeps a millisecond when the
// slice has run 8 ms or more, which lets the event loop run, and returns
// the context's error to cancel. Gathering string keys and a filter's
// matches never copies what was gathered (chunks of 4 MiB, parts of 64Ki
// rows): one copy of hundreds of MB would be a long task.
//
// # Design notes: libraries measured
//
// Measured on this machine (2 shared cores) with the benchmark data: 10M
// rows in 64Ki-row batches, a float32 score and a 20-value dictionary
// label with int32 indices (bench_test.go and internal/compare):
//
//	go test -run XXX -bench '^BenchmarkSortFloat32$' -benchmem -count 5 ./app/query
//	go test -run XXX -bench '^BenchmarkComputeSortIndices$' -benchmem -count 5 -benchtime 1x ./app/query/internal/compare
//
//	median of -count 5                     ns/op       B/op  allocs/op
//	sort -score, query (keys + sort)   405,761,766   80,004,304        155
//	sort -score, compute.SortIndices 11,099,556,515  320,018,440         19
//	filter, query                       28,599,197    1,884,136      4,895
//	filter, compute (cast, equal,      313,248,867  122,482,216     29,318
//	  greater, and_kleene, indices)
//	statistics of score, query         811,624,634   43,205,440        588
//
// (Past the distinct limit, as here, statistics cost about 80 ns a value:
// the Misra–Gries summary's map churns, and each value is hashed and
// offered to the reservoir.)
//
// Size of the wasm (GOOS=js GOARCH=wasm, -trimpath -ldflags="-s -w",
// -tags=arrow_json_stdlib), the app's main with a file that calls each
// package's filter, sort and statistics (built in a scratch folder, not
// kept; gzip -9):
//
//	app as it is               16,513,303 B   3,656,767 B gzip
//	app + query                17,552,368 B   (+1.04 MB)   3,859,070 B (+0.20 MB)
//	app + arrow/compute        43,270,770 B   (+26.8 MB)   6,507,023 B (+2.85 MB)
//
// arrow-go's compute offers sort_indices (stable, with null placement)
// and comparison, boolean and filter kernels. Its sort took 27 times
// query's time and 4 times its memory (it sorts a chunked array by
// comparisons), its filter 11 times the time and 65 times the memory; it
// has no contains or starts with (no match_substring in the Go port), its
// equal takes no dictionary (a cast to strings first), it knows no tensor
// statistics and no row ranges, and it makes the wasm 2.6 times as large.
//
// The expression library served here, github.com/expr-lang/expr v1.17.8,
// has a grammar of its own (==, and no between, is null or starts with of
// SQL), evaluates Go values row by row (55.6 ms for 1M rows of label ==
// 'cat' and score > 0.9 in its VM, so 556 ms for 10M before the rows are
// made from Arrow), and adds 4.5 MB to a small wasm (a main printing
// len(os.Args): 2,577,038 B; with expr.Compile and expr.Run: 7,054,339
// B). The parser generator github.com/alecthomas/participle/v2 v2.1.4
// adds 1.2 MB (3,759,190 B) and would replace the 400-line hand-written
// parser, but not its messages, which say what was expected where. Both
// were measured in a scratch module (go get of those versions, go test
// -bench and GOOS=js GOARCH=wasm go build -ldflags="-s -w"), not kept.
//
// The choice: the standard library and kernels written here over the
// Arrow buffers (bitsets of 8,192 rows, typed loops, dictionaries tested
// once), a radix sort, and a recursive-descent parser.
package query
