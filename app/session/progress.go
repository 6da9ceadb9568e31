package session

// Progress is work under way on a file: in bytes, with the rows found so
// far (0 when the work finds none); or, when RowsTotal is set, in rows.
type Progress struct {
	Label               string
	Done, Total         int64
	Rows                int64
	RowsDone, RowsTotal int64
}
