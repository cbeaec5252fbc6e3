package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/trialstore"
)

// storeNote is what one run of the command line knows of the study databases it opened: it
// says which one on standard error, once, and remembers their URLs to name the database in an
// error that says it is damaged.
//
// The line "study database: PATH" waits until the command writes anything else on standard
// error (it then comes first) or ends well: a command that fails before printing anything
// keeps its one error line, which names the database when the database is the problem.
type storeNote struct {
	w       io.Writer
	mu      sync.Mutex
	urls    []string // as Store.URL gives them: redacted, SQLite paths as named
	pending string   // the line not printed yet
}

type storeNoteKey struct{}

// withStoreNote returns ctx carrying a storeNote that writes to w, and the writer the
// command's standard error must go through (noteWriter).
func withStoreNote(ctx context.Context, w io.Writer) (context.Context, *storeNote, io.Writer) {
	n := &storeNote{w: w}
	var out io.Writer = noteWriter{n: n}
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		out = noteFdWriter{noteWriter: noteWriter{n: n}, fd: f} // still a terminal to cmdutil.IsTerminal
	}
	return context.WithValue(ctx, storeNoteKey{}, n), n, out
}

// storeNoteOf returns ctx's storeNote, or nil (a command run without withStoreNote: notes
// nothing).
func storeNoteOf(ctx context.Context) *storeNote {
	if ctx == nil {
		return nil
	}
	n, _ := ctx.Value(storeNoteKey{}).(*storeNote)
	return n
}

// noteStore notes "study database: PATH" (a SQLite file by absolute path, a URL with its
// password masked) the first time the run opens a database, and remembers it.
func noteStore(ctx context.Context, st *trialstore.Store) {
	n := storeNoteOf(ctx)
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, u := range n.urls {
		if u == st.URL() {
			return
		}
	}
	n.urls = append(n.urls, st.URL())
	n.pending += "study database: " + termtext.Quote(trialstore.DisplayPath(st.URL(), st.Dialect() == trialstore.SQLite)) + "\n"
}

// flushLocked prints the pending line; the caller holds n.mu.
func (n *storeNote) flushLocked() {
	if n.pending != "" {
		_, _ = io.WriteString(n.w, n.pending)
		n.pending = ""
	}
}

// finish ends the run: after a success the pending line is printed; after an error it is
// dropped (the error is the one line).
func (n *storeNote) finish(err error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if err == nil {
		n.flushLocked()
	}
	n.pending = ""
}

// noteWriter is standard error for the command: the pending study database line first.
type noteWriter struct{ n *storeNote }

func (w noteWriter) Write(p []byte) (int, error) {
	w.n.mu.Lock()
	defer w.n.mu.Unlock()
	w.n.flushLocked()
	return w.n.w.Write(p)
}

// noteFdWriter is a noteWriter over a file, which keeps its descriptor (cmdutil.IsTerminal).
type noteFdWriter struct {
	noteWriter
	fd interface{ Fd() uintptr }
}

// Fd returns the file's descriptor.
func (w noteFdWriter) Fd() uintptr { return w.fd.Fd() }

// nameDamaged makes an error that says a study database is damaged (trialstore.IsDamaged) name
// the database, when its message does not already: "study database PATH is damaged: ...".
func (n *storeNote) nameDamaged(err error) error {
	if n == nil || !trialstore.IsDamaged(err) {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.urls) == 0 {
		return err
	}
	msg := err.Error()
	for _, u := range n.urls {
		if strings.Contains(msg, u) {
			return err
		}
	}
	return fmt.Errorf("study database %s is damaged: %w", n.urls[len(n.urls)-1], err)
}
