// Package errwriter holds Writer, an io.Writer that keeps the first write error, for a long
// run of output lines written without checks and the error checked once at the end:
//
//	ew := errwriter.New(w)
//	ew.Printf("a line\n")
//	ew.Printf("another line\n")
//	return ew.Err()
package errwriter
