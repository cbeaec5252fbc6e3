package outfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// WritePair writes two files that belong together (sample's CSV and the JSON metadata beside
// it) through write, which gets a writer for each. Each is written as Write writes one: a
// regular or new file through a temporary file (".NAME.gctune-tmp-RANDOM") in its directory,
// its permission bits kept, a symbolic link through to its target, a device or FIFO in place.
// The temporary files are renamed over the targets only once both are complete, so a failure
// (or a panic) leaves both targets as they were (a device or FIFO holds what was written so
// far) and no temporary file. Errors are *Error naming the output as given.
func WritePair(paths [2]string, write func(first, second io.Writer) error) error {
	var ts [2]target
	for i, p := range paths {
		t, err := resolve(p)
		if err != nil {
			return &Error{Path: p, Err: err}
		}
		if t.exists && t.regular {
			if err := writable(t.path, false); err != nil {
				return &Error{Path: p, Err: cause(err)}
			}
		}
		ts[i] = t
	}
	if ts[0].regular && ts[1].regular && ts[0].path == ts[1].path {
		return &Error{Path: paths[1], Err: errors.New("is the same file as " + paths[0])}
	}
	var files [2]*os.File
	var temps [2]string // cleared once renamed
	defer func() {
		// Runs on error and on panic alike: no temporary file survives.
		for i, f := range files {
			if f != nil {
				_ = f.Close()
			}
			if temps[i] != "" {
				_ = os.Remove(temps[i])
			}
		}
	}()
	for i, t := range ts {
		var err error
		if t.regular {
			dir, base := splitDir(t.path)
			files[i], temps[i], err = createTemp(dir, base)
		} else {
			files[i], err = os.OpenFile(t.path, os.O_WRONLY, 0)
		}
		if err != nil {
			return &Error{Path: paths[i], Err: cause(err)}
		}
	}
	if err := write(files[0], files[1]); err != nil {
		// The output the failure is about: the second when the error names its file.
		failed := 0
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == files[1].Name() {
			failed = 1
		}
		for i := range ts {
			if temps[i] != "" {
				err = hideTemp(err, temps[i], ts[i].path)
			}
		}
		var oe *Error
		if errors.As(err, &oe) {
			return err
		}
		return &Error{Path: paths[failed], Err: cause(err)}
	}
	for i, t := range ts {
		f := files[i]
		if t.regular {
			if t.exists {
				if err := f.Chmod(t.mode.Perm() | t.mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)); err != nil {
					return &Error{Path: paths[i], Err: cause(err)}
				}
			}
			if err := f.Sync(); err != nil {
				return &Error{Path: paths[i], Err: cause(err)}
			}
		}
		err := f.Close()
		files[i] = nil
		if err != nil {
			return &Error{Path: paths[i], Err: cause(err)}
		}
	}
	// Both complete: the second (the metadata) first, so that a reader that finds the new
	// first file finds its new second one.
	for _, i := range []int{1, 0} {
		if temps[i] == "" {
			continue
		}
		if err := os.Rename(temps[i], ts[i].path); err != nil {
			return &Error{Path: paths[i], Err: cause(err)}
		}
		temps[i] = ""
	}
	return nil
}

// splitDir is filepath.Split with "." for a file in the working directory.
func splitDir(path string) (dir, base string) {
	for i := len(path) - 1; i >= 0; i-- {
		if os.IsPathSeparator(path[i]) {
			return path[:i+1], path[i+1:]
		}
	}
	return ".", path
}

// Replaces reports whether Write (or WritePair) on path would replace an existing regular
// file (through any symbolic links): what a command that does not overwrite without --force
// asks. A device, a FIFO, a dangling link or a missing file is not replaced.
func Replaces(path string) (bool, error) {
	t, err := resolve(path)
	if err != nil {
		return false, &Error{Path: path, Err: err}
	}
	return t.exists && t.regular, nil
}

// Kind says what an output path is, after its symbolic links: "" for a regular file or one
// that does not exist yet (a dangling link: the file it would create), else "named pipe",
// "device" or "socket". A command whose outputs must be files (sample's pair, renamed into
// place together) refuses the others before any work: opening a FIFO nobody reads blocks.
func Kind(path string) (string, error) {
	t, err := resolve(path)
	if err != nil {
		return "", &Error{Path: path, Err: err}
	}
	switch {
	case !t.exists || t.regular:
		return "", nil
	case t.mode&fs.ModeNamedPipe != 0:
		return "named pipe", nil
	case t.mode&fs.ModeSocket != 0:
		return "socket", nil
	case t.mode&fs.ModeDevice != 0:
		return "device", nil
	}
	return "special file", nil
}
