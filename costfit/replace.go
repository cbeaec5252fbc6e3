package costfit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// maxFileHead is how much of an existing file CheckReplace reads to tell a gctune cost file
// (about a kilobyte) from another file it must not replace.
const maxFileHead = 64 << 10

// ErrNotCostFile is matched by CheckReplace's error for a file that is not a gctune cost file.
var ErrNotCostFile = errors.New("not a gctune cost file")

// CheckReplace says whether a cost file may be written at path: nothing there, a device or FIFO
// (/dev/null, a named pipe: written in place, never read), or a gctune cost file (ReadFile
// reads it). A regular file that is not one is an error matching ErrNotCostFile; at most
// maxFileHead+1 bytes of it are read, a larger file is not a cost file. Another error is the
// file's (stat, open, read).
func CheckReplace(path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return nil
	}
	notCost := fmt.Errorf("%s: %w", path, ErrNotCostFile)
	if st.Size() > maxFileHead {
		return notCost
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileHead+1))
	if err != nil {
		return err
	}
	if len(data) > maxFileHead {
		return notCost
	}
	if _, _, err := ReadFile(bytes.NewReader(data), path); err != nil {
		return notCost
	}
	return nil
}
