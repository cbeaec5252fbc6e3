//go:build unix

package infile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ReadAll on /dev/zero stops one byte past the limit.
func TestReadAllDevZero(t *testing.T) {
	_, err := ReadAll(context.Background(), "/dev/zero", 1<<20, "cost file")
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Equal(t, "/dev/zero: larger than the 1 MiB a cost file may have (too large)", err.Error())
}

func TestReadAllFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, []byte("hello"), 0o644))
	b, err := ReadAll(context.Background(), path, 5, "x")
	require.NoError(t, err)
	assert.Equal(t, "hello", string(b))
	_, err = ReadAll(context.Background(), path, 4, "x")
	require.ErrorIs(t, err, ErrTooLarge)
	_, err = ReadAll(context.Background(), filepath.Join(t.TempDir(), "missing"), 4, "x")
	require.ErrorIs(t, err, os.ErrNotExist)
}

// A FIFO with no writer blocks in open(2); cancelling the context (what the first SIGINT does)
// ends the wait at once.
func TestFIFOWithoutWriterInterrupted(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "in")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	t.Cleanup(func() { unblock(fifo) })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := ReadAll(ctx, fifo, 1<<20, "x")
	var ie *InterruptedError
	require.ErrorAs(t, err, &ie)
	assert.True(t, errors.Is(err, context.Canceled))
	assert.Equal(t, "interrupted while waiting for "+fifo+" to be written", err.Error())
	_, err = Open(ctx, fifo)
	require.ErrorAs(t, err, &ie)
}

// A FIFO with a writer is read as a stream, with the same bound.
func TestFIFOReadAsStream(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "in")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		_, _ = f.Write([]byte("kind: x\n"))
	}()
	assert.True(t, IsStream(fifo))
	b, err := ReadAll(context.Background(), fifo, 1<<20, "x")
	require.NoError(t, err)
	assert.Equal(t, "kind: x\n", string(b))
	// An endless writer is cut at the bound.
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		buf := make([]byte, 64<<10)
		for {
			if _, err := f.Write(buf); err != nil {
				return
			}
		}
	}()
	_, err = ReadAll(context.Background(), fifo, 1<<20, "x")
	require.ErrorIs(t, err, ErrTooLarge)
}

// unblock opens the FIFO for writing without blocking, so that a reader left waiting in
// open(2) by an interrupted test returns.
func unblock(fifo string) {
	fd, err := syscall.Open(fifo, syscall.O_RDWR|syscall.O_NONBLOCK, 0)
	if err == nil {
		time.Sleep(10 * time.Millisecond)
		_ = syscall.Close(fd)
	}
}
