package source

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/gcprof"
)

// StdinRef is the profile reference that names standard input.
const StdinRef = "-"

// StreamOptions say how OpenContext reads a reference that may be a stream.
type StreamOptions struct {
	// Stdin is what the reference StdinRef reads (nil: an empty input).
	Stdin io.Reader
	// Check, when set, is called with what was opened and the options it was opened with (for
	// a profile read by its content: its temporary name, and the metadata file found beside
	// it); its error is OpenContext's, with the temporary name replaced by the reference. The
	// command line refuses there the flags that do not apply to the profile's kind.
	Check func(*Info, Options) error
}

// ReadInterruptedError is OpenContext's error when ctx was done while it copied a stream
// whose kind its content says: nothing was opened.
type ReadInterruptedError struct {
	// Ref is the reference as given.
	Ref string
}

func (e *ReadInterruptedError) Error() string {
	return "interrupted while reading " + termtext.Quote(e.Ref)
}

// OpenContext is Open, given up at once when ctx is done while it waits on a FIFO or pipe
// (the profile, or a FiLiP export's metadata beside it, given as <(zcat run.csv.gz) or a
// named pipe with no writer yet): the wait ends with the *infile.InterruptedError naming the
// input. A reference whose kind its name does not say (NeedsSniffing: StdinRef, a pipe, a
// file with no known extension) is read by its content (SniffExt); its FiLiP metadata is
// Options.FiLiPJSONPath or the file beside it named REF.json. The readers bound what they
// read by the format's own limits.
func OpenContext(ctx context.Context, ref string, opts Options, so StreamOptions) (*profile.Profile, *Info, error) {
	if NeedsSniffing(ref) {
		return openSniffed(ctx, ref, opts, so)
	}
	var p *profile.Profile
	var info *Info
	err := infile.Do(ctx, func() error {
		var err error
		p, info, err = Open(ref, opts)
		return err
	}, Files(ref, opts)...)
	if err != nil {
		return nil, nil, err
	}
	if so.Check != nil {
		if err := so.Check(info, opts); err != nil {
			return nil, nil, err
		}
	}
	return p, info, nil
}

// Files lists the files Open(ref, opts) reads: ref, and a FiLiP export's metadata.
func Files(ref string, opts Options) []string {
	files := []string{ref}
	if strings.EqualFold(filepath.Ext(ref), ".csv") {
		meta := opts.FiLiPJSONPath
		if meta == "" {
			meta = strings.TrimSuffix(ref, filepath.Ext(ref)) + ".json"
		}
		files = append(files, meta)
	}
	return files
}

// knownExt reports whether ref's extension names a profile kind (Open decides those by name).
func knownExt(ref string) bool {
	switch strings.ToLower(filepath.Ext(ref)) {
	case ".csv", ".yaml", ".yml", ".gcprof":
		return true
	}
	return false
}

// NeedsSniffing reports whether ref is a profile whose kind its name does not say: standard
// input (StdinRef), or a file (a pipe from process substitution, /dev/fd/63, a FIFO, a
// regular file) with no known extension. A bundled workload's name is no file and needs none.
func NeedsSniffing(ref string) bool {
	if ref == StdinRef {
		return true
	}
	if knownExt(ref) {
		return false
	}
	st, err := os.Stat(ref)
	return err == nil && !st.IsDir()
}

// yamlKey matches a line that starts a YAML mapping key, as a workload spec's lines do.
var yamlKey = regexp.MustCompile(`(?m)^[A-Za-z_][A-Za-z0-9_]*:(\s|$)`)

// SniffExt decides a profile's kind from its first bytes, as the extension it would have:
// ".gcprof" (the binary profile's magic), ".csv" (a FiLiP export's header line: quoted or
// comma-separated column names), ".yaml" (a workload spec: key: value lines).
func SniffExt(head []byte) (string, error) {
	if bytes.HasPrefix(head, []byte(gcprof.Magic)) {
		return ".gcprof", nil
	}
	first, _, _ := bytes.Cut(bytes.TrimLeft(head, " \t\r\n\ufeff"), []byte("\n"))
	if bytes.Count(first, []byte(",")) >= 2 && (bytes.HasPrefix(first, []byte(`"`)) || bytes.Contains(first, []byte("sizeInBytes"))) {
		return ".csv", nil
	}
	if yamlKey.Match(head) {
		return ".yaml", nil
	}
	return "", errors.New("cannot tell its kind from its content: want a FiLiP export (CSV), a workload spec (YAML) or a .gcprof profile")
}

// sniffHead is how much of an input SniffExt looks at.
const sniffHead = 4096

// sniffed makes a profile whose kind its name does not say (NeedsSniffing) readable by Open:
// its kind decided from its content (SniffExt), a regular file linked, and a stream (standard
// input, a pipe, a FIFO) copied, under a name with that extension in a private temporary
// folder. It returns that name and a cleanup that removes the folder. The stream is read
// once, as it comes; the copy takes the disk the profile takes, no memory.
func sniffed(ctx context.Context, ref string, stdin io.Reader) (path string, cleanup func(), err error) {
	var r io.Reader
	stream := ref == StdinRef || infile.IsStream(ref)
	if ref == StdinRef {
		r = stdin
		if r == nil {
			r = bytes.NewReader(nil)
		}
	} else {
		f, err := infile.Open(ctx, ref)
		if err != nil {
			return "", nil, err
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(r, sniffHead)
	head, err := br.Peek(sniffHead)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return "", nil, fmt.Errorf("%s: %w", ref, err)
	}
	ext, err := SniffExt(head)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", termtext.Quote(ref), err)
	}
	dir, err := os.MkdirTemp("", "gctune-input-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { _ = os.RemoveAll(dir) }
	path = filepath.Join(dir, "profile"+ext)
	if !stream {
		abs, err := filepath.Abs(ref)
		if err == nil {
			err = os.Symlink(abs, path)
		}
		if err != nil {
			cleanup()
			return "", nil, err
		}
		return path, cleanup, nil
	}
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, err = io.Copy(out, ctxReader{ctx, br})
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		cleanup()
		if ctx != nil && ctx.Err() != nil {
			return "", nil, &ReadInterruptedError{Ref: ref}
		}
		return "", nil, fmt.Errorf("%s: %w", termtext.Quote(ref), err)
	}
	return path, cleanup, nil
}

// ctxReader is r that fails once ctx is done (never with a nil ctx).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(b []byte) (int, error) {
	if c.ctx != nil {
		if err := c.ctx.Err(); err != nil {
			return 0, err
		}
	}
	return c.r.Read(b)
}

// renamedError is err with every mention of a temporary name replaced by the input's name as
// the user gave it.
type renamedError struct {
	err      error
	tmp, ref string
}

func (e *renamedError) Error() string {
	meta := strings.TrimSuffix(e.tmp, filepath.Ext(e.tmp)) + ".json"
	return strings.NewReplacer(e.tmp, e.ref, meta, e.ref+".json").Replace(e.err.Error())
}
func (e *renamedError) Unwrap() error { return e.err }

// openSniffed is OpenContext for a profile whose kind its content says (NeedsSniffing).
func openSniffed(ctx context.Context, ref string, opts Options, so StreamOptions) (*profile.Profile, *Info, error) {
	path, cleanup, err := sniffed(ctx, ref, so.Stdin)
	if err != nil {
		return nil, nil, err
	}
	defer cleanup()
	if opts.FiLiPJSONPath == "" && ref != StdinRef {
		if st, err := os.Stat(ref + ".json"); err == nil && st.Mode().IsRegular() {
			opts.FiLiPJSONPath = ref + ".json"
		}
	}
	p, info, err := OpenContext(ctx, path, opts, so)
	if err != nil {
		return nil, nil, &renamedError{err: err, tmp: path, ref: ref}
	}
	info.Ref, info.Path = ref, ref
	if p.Meta.Source == path {
		p.Meta.Source = ref
	}
	return p, info, nil
}
