package outfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Error is the error of Write and Check: the output as the user named it and what is wrong.
// It never names a temporary file.
type Error struct {
	// Path is the output as given (not the symbolic link's target).
	Path string
	// Err is the cause, an fs error where there is one (errors.Is(err, fs.ErrPermission)).
	Err error
}

// Error formats "cannot write PATH: cause".
func (e *Error) Error() string { return fmt.Sprintf("cannot write %s: %v", e.Path, e.Err) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// maxLinks bounds the symbolic links followed, as the kernel does (ELOOP after 40).
const maxLinks = 40

// target is what an output path resolves to.
type target struct {
	path    string      // after following symbolic links
	exists  bool        // path exists (after the links)
	mode    fs.FileMode // its mode when it exists
	regular bool        // a regular file, or a new one: replaced atomically
}

// resolve follows symbolic links from path (a dangling link resolves to the file it would
// create) and says what is at the end.
func resolve(path string) (target, error) {
	if path == "" {
		return target{}, errors.New("empty file name")
	}
	p := path
	for range maxLinks {
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return target{path: p, regular: true}, nil
		}
		if err != nil {
			return target{}, cause(err)
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			if st.IsDir() {
				return target{}, errors.New("is a directory")
			}
			return target{path: p, exists: true, mode: st.Mode(), regular: st.Mode().IsRegular()}, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return target{}, cause(err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return target{}, errors.New("too many levels of symbolic links")
}

// cause strips the path an fs error carries, so that errors name the output as given (and
// never a temporary file): *fs.PathError "open /x/.tmp: permission denied" → "permission
// denied", still matching fs.ErrPermission.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// Check reports, without writing anything, whether Write(path, ...) can succeed as far as the
// file system says: path is not a directory; for a regular or new file, its directory exists
// and is writable (the temporary file goes there) and an existing file is writable (a
// read-only file is not replaced); a device or FIFO is writable, and no device that keeps
// nothing and is not /dev/null (/dev/zero, /dev/urandom: written "successfully" into, the
// output is lost without a word).
func Check(path string) error {
	t, err := resolve(path)
	if err != nil {
		return &Error{Path: path, Err: err}
	}
	if !t.regular {
		if st, err := os.Stat(t.path); err == nil && discards(st) {
			return &Error{Path: path, Err: errors.New("is a device that keeps nothing written into it (/dev/null is the one to discard an output)")}
		}
		if err := writable(t.path, false); err != nil {
			return &Error{Path: path, Err: cause(err)}
		}
		return nil
	}
	dir := filepath.Dir(t.path)
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return &Error{Path: path, Err: noDirError(dir)}
	}
	if err != nil {
		return &Error{Path: path, Err: fmt.Errorf("directory %s: %w", dir, cause(err))}
	}
	if !st.IsDir() {
		return &Error{Path: path, Err: fmt.Errorf("%s is not a directory", dir)}
	}
	if err := writable(dir, true); err != nil {
		return &Error{Path: path, Err: fmt.Errorf("directory %s: %w", dir, cause(err))}
	}
	// A file its owner made read-only is not replaced, though the directory would allow it.
	if t.exists {
		if err := writable(t.path, false); err != nil {
			return &Error{Path: path, Err: cause(err)}
		}
	}
	return nil
}

// Write writes path through write (see the package comment for what each kind of file gets).
// A failure, including a panic in write, removes the temporary file; the target is then
// untouched (a regular file) or holds what was written so far (a device or FIFO).
func Write(path string, write func(io.Writer) error) error {
	t, err := resolve(path)
	if err != nil {
		return &Error{Path: path, Err: err}
	}
	if t.exists && t.regular {
		if err := writable(t.path, false); err != nil {
			return &Error{Path: path, Err: cause(err)}
		}
	}
	if !t.regular {
		if st, serr := os.Stat(t.path); serr == nil && discards(st) {
			return &Error{Path: path, Err: errors.New("is a device that keeps nothing written into it (/dev/null is the one to discard an output)")}
		}
		err = writeInPlace(t.path, write)
	} else {
		err = writeAtomic(t, write)
	}
	if err != nil {
		var oe *Error
		if errors.As(err, &oe) {
			return err
		}
		return &Error{Path: path, Err: cause(err)}
	}
	return nil
}

// writeInPlace writes a device or FIFO: opened for writing, never created, truncated or
// replaced.
func writeInPlace(path string, write func(io.Writer) error) (err error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	return write(f)
}

// writeAtomic writes a regular or new file through a temporary file renamed over it.
func writeAtomic(t target, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(t.path)
	if dir == "" {
		dir = "."
	}
	// The mode at creation is 0666 less the umask, as for any new file; an existing file's
	// permission bits are copied below.
	f, tmp, err := createTemp(dir, base)
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		// Runs on error and on panic alike: the temporary file never survives.
		if !renamed {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if err := write(f); err != nil {
		return hideTemp(err, tmp, t.path)
	}
	if t.exists {
		if err := f.Chmod(t.mode.Perm() | t.mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)); err != nil {
			return err
		}
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, t.path); err != nil {
		return err
	}
	renamed = true
	return nil
}

// tempPrefix starts every temporary file's name, so that one left by a killed process is
// recognisable: ".NAME.gctune-tmp-RANDOM".
const tempPrefix = ".gctune-tmp-"

// createTemp creates a new file for base in dir with mode 0666 less the umask (os.CreateTemp
// would give 0600).
func createTemp(dir, base string) (*os.File, string, error) {
	if len(base) > 100 {
		base = base[:100]
	}
	base = strings.TrimPrefix(base, ".")
	for range 100 {
		var b [6]byte
		_, _ = rand.Read(b[:])
		name := filepath.Join(dir, "."+base+tempPrefix+hex.EncodeToString(b[:]))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		return f, name, nil
	}
	return nil, "", errors.New("cannot create a temporary file")
}

// noDirError says that an output's directory does not exist; it matches fs.ErrNotExist.
type noDirError string

func (e noDirError) Error() string        { return fmt.Sprintf("directory %s does not exist", string(e)) }
func (e noDirError) Is(target error) bool { return target == fs.ErrNotExist }

// hideTemp returns err with the temporary file's name, where its message quotes it (a writer
// that formats the file's name itself), replaced by the target's.
func hideTemp(err error, tmp, path string) error {
	msg := err.Error()
	if !strings.Contains(msg, tmp) {
		return err
	}
	return &hiddenTempError{msg: strings.ReplaceAll(msg, tmp, path), err: err}
}

type hiddenTempError struct {
	msg string
	err error
}

func (e *hiddenTempError) Error() string { return e.msg }
func (e *hiddenTempError) Unwrap() error { return e.err }
