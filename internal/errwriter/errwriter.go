package errwriter

import (
	"fmt"
	"io"
)

// Writer writes to an underlying io.Writer until a write fails; from then on it writes
// nothing and every Write returns that first error.
type Writer struct {
	w   io.Writer
	err error
}

// New returns a Writer writing to w.
func New(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes b unless an earlier write failed, and keeps the error of this one.
func (e *Writer) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

// Printf formats as fmt.Fprintf does and writes the result, unless an earlier write failed.
func (e *Writer) Printf(format string, args ...any) {
	fmt.Fprintf(e, format, args...)
}

// Err is the first write error, nil if every write succeeded.
func (e *Writer) Err() error { return e.err }
