package infile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrTooLarge is wrapped by ReadAll's error for a file over its limit.
var ErrTooLarge = errors.New("too large")

// InterruptedError is the error for a read given up because the context was cancelled while
// it waited for a writer (or for data): it names the input and wraps the context's error.
type InterruptedError struct {
	Path string
	Err  error
}

// Error formats "interrupted while waiting for PATH".
func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted while waiting for %s to be written", e.Path)
}

// Unwrap returns the context's error (context.Canceled after SIGINT).
func (e *InterruptedError) Unwrap() error { return e.Err }

// IsStream reports whether path names something that is read as a stream and may block: a
// FIFO, a pipe, a socket, a character device. A regular file, a directory, a missing file or
// a bundled workload's name is not.
func IsStream(path string) bool {
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	return st.Mode()&(os.ModeNamedPipe|os.ModeSocket|os.ModeCharDevice) != 0
}

// Open opens path for reading. A stream (IsStream) is opened in a goroutine, and Open returns
// an *InterruptedError as soon as ctx is done; a file opened after that is closed.
func Open(ctx context.Context, path string) (*os.File, error) {
	if !IsStream(path) {
		return os.Open(path)
	}
	var f *os.File
	if err := Do(ctx, func() error {
		var err error
		f, err = os.Open(path)
		return err
	}, path); err != nil {
		return nil, err // f, if the open ever succeeds, is left to the process's end
	}
	return f, nil
}

// Do runs read, which reads paths, and returns its error. When one of paths is a stream
// (IsStream), read runs in a goroutine and Do returns an *InterruptedError naming it as soon
// as ctx is done, leaving read blocked (in open(2), waiting for a writer, or in read(2)): it
// ends with the process. read must then not touch anything the caller uses after Do returns
// an error.
func Do(ctx context.Context, read func() error, paths ...string) error {
	path := ""
	for _, p := range paths {
		if IsStream(p) {
			path = p
			break
		}
	}
	if ctx == nil || ctx.Done() == nil || path == "" {
		return read()
	}
	if err := ctx.Err(); err != nil {
		return &InterruptedError{Path: path, Err: err}
	}
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return &InterruptedError{Path: path, Err: ctx.Err()}
	}
}

// ReadAll reads the file at path whole, but refuses it once it passes limit bytes: it reads at
// most limit+1 bytes, so that a device or pipe that never ends (/dev/zero) is refused, not read
// without bound. A stream is read as Do reads it: a cancelled ctx stops the wait at once. what
// names the input in the error for a file over the limit ("cost file").
func ReadAll(ctx context.Context, path string, limit int64, what string) ([]byte, error) {
	var data []byte
	err := Do(ctx, func() error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, limit+1))
		if err != nil {
			return err
		}
		data = b
		return nil
	}, path)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than the %d MiB a %s may have (%w)", path, limit>>20, what, ErrTooLarge)
	}
	return data, nil
}
