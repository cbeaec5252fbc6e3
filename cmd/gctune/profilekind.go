package main

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

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/gcprof"
	"github.com/gctune/gctune/profile/source"
)

// stdinRef is the profile reference that names standard input.
const stdinRef = "-"

// knownProfileExt reports whether ref's extension names a profile kind (source.Open decides
// those by name).
func knownProfileExt(ref string) bool {
	switch strings.ToLower(filepath.Ext(ref)) {
	case ".csv", ".yaml", ".yml", ".gcprof":
		return true
	}
	return false
}

// needsSniffing reports whether ref is a profile whose kind its name does not say: standard
// input ("-"), or a file (a pipe from process substitution, /dev/fd/63, a FIFO, a regular file)
// with no known extension. A bundled workload's name is no file and needs none.
func needsSniffing(ref string) bool {
	if ref == stdinRef {
		return true
	}
	if knownProfileExt(ref) {
		return false
	}
	st, err := os.Stat(ref)
	return err == nil && !st.IsDir()
}

// yamlKey matches a line that starts a YAML mapping key, as a workload spec's lines do.
var yamlKey = regexp.MustCompile(`(?m)^[A-Za-z_][A-Za-z0-9_]*:(\s|$)`)

// sniffProfileExt decides a profile's kind from its first bytes, as the extension it would
// have: ".gcprof" (the binary profile's magic), ".csv" (a FiLiP export's header line: quoted
// or comma-separated column names), ".yaml" (a workload spec: key: value lines).
func sniffProfileExt(head []byte) (string, error) {
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

// sniffHead is how much of an input sniffProfileExt looks at.
const sniffHead = 4096

// sniffedProfile makes a profile whose kind its name does not say (needsSniffing) readable by
// source.Open: its kind decided from its content (sniffProfileExt), a regular file linked, and
// a stream (standard input, a pipe, a FIFO) copied, under a name with that extension in a
// private temporary folder. It returns that name and a cleanup that removes the folder. The
// stream is read once, as it comes; the copy takes the disk the profile takes, no memory.
func sniffedProfile(ctx context.Context, ref string) (path string, cleanup func(), err error) {
	var r io.Reader
	stream := ref == stdinRef || infile.IsStream(ref)
	if ref == stdinRef {
		r = os.Stdin
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
	ext, err := sniffProfileExt(head)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", quoteName(ref), err)
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
		if ctx.Err() != nil {
			return "", nil, interruptedf("while reading %s", quoteName(ref))
		}
		return "", nil, fmt.Errorf("%s: %w", quoteName(ref), err)
	}
	return path, cleanup, nil
}

// ctxReader is r that fails once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
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

// openSniffedProfile is openProfile for a profile whose kind its content says (needsSniffing).
// A FiLiP export's metadata is --meta, or the file beside it named REF.json.
func openSniffedProfile(ctx context.Context, ref string, opts source.Options) (*profile.Profile, *source.Info, error) {
	path, cleanup, err := sniffedProfile(ctx, ref)
	if err != nil {
		return nil, nil, err
	}
	defer cleanup()
	if opts.FiLiPJSONPath == "" && ref != stdinRef {
		if st, err := os.Stat(ref + ".json"); err == nil && st.Mode().IsRegular() {
			opts.FiLiPJSONPath = ref + ".json"
		}
	}
	p, info, err := openProfile(ctx, path, opts)
	if err != nil {
		return nil, nil, &renamedError{err: err, tmp: path, ref: ref}
	}
	info.Ref, info.Path = ref, ref
	if p.Meta.Source == path {
		p.Meta.Source = ref
	}
	return p, info, nil
}

// inputsHelp is the paragraph the --help of every command that reads inputs ends with.
const inputsHelp = `

Inputs may be FIFOs or pipes, read once as streams: a profile as <(zcat run.csv.gz) or - (standard
input), --config, --meta, --measured, --cost. A command waits, as cat does, until a FIFO's writer
opens it (Ctrl-C stops the wait). A profile whose name has no .csv, .yaml, .yml or .gcprof
extension is read by its content: a FiLiP export's CSV header, a workload spec's YAML keys, or a
.gcprof profile's magic (a stream's FiLiP metadata with --meta, or its rate with --rate).
A study's profiles must be regular files, which resume and workers read again.`

// addInputsHelp ends the --help of the commands that read profiles and input files with
// inputsHelp.
func addInputsHelp(root interface {
	Commands() []*cobra.Command
}) {
	for _, c := range root.Commands() {
		switch c.Name() {
		case "lifetimes", "simulate", "sample", "calibrate", "optimize", "studies":
			if c.Name() == "studies" {
				addInputsHelp(c)
				continue
			}
			c.Long += inputsHelp
		case "create":
			c.Long += inputsHelp
		}
	}
}
