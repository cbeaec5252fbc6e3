package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/c-bata/goptuna"
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/studies"
)

// newStudy is a study just created by createNewStudy: its database (which the caller closes),
// the goptuna study, the problem stored with it and its objective.
type newStudy struct {
	store *studies.Store
	study *goptuna.Study
	sp    *studyProblem
	prob  *objective.Problem
}

// newStudyWording words createNewStudy's usage errors for the command that creates the study.
type newStudyWording struct {
	// badName has one verb, for what is wrong with the name.
	badName string
	// exists has three: the name (%q), the database and the name quoted for a shell.
	exists string
}

// createNewStudy creates study name on workloads refs in the configured database (optimize,
// study create): it checks the name, opens the workloads and plans the search (newProblem)
// before it opens the database, then creates the study and queues its seeds (createStudy).
func createNewStudy(ctx context.Context, cfg Config, name string, refs []string, words newStudyWording) (*newStudy, error) {
	if err := studies.ValidateName(name); err != nil {
		return nil, usageErrorf(words.badName, strings.TrimPrefix(err.Error(), "studies: "))
	}
	sp, prob, err := newProblem(cfg, refs)
	if err != nil {
		return nil, err
	}
	store, err := openStore(ctx, cfg.Storage, false)
	if err != nil {
		return nil, err
	}
	study, err := createStudy(ctx, store, name, sp)
	if errors.Is(err, studies.ErrStudyExists) {
		err = usageErrorf(words.exists, name, store.URL(), export.ShellQuote(name))
	}
	if err != nil {
		store.Close()
		return nil, err
	}
	return &newStudy{store: store, study: study, sp: sp, prob: prob}, nil
}

// openStore opens the study database for writing (optimize, resume, study create, verify,
// calibrate --from-study, studies delete), mapping its errors to exit codes: a missing file on
// resume, a bad URL, another program's SQLite file, an unreachable server are the user's to
// fix (2). A new database in the user's data folder gets its folder. The database's path is
// noted once (noteStore).
func openStore(ctx context.Context, url string, mustExist bool) (*studies.Store, error) {
	if !mustExist {
		if err := makeDataFolder(url); err != nil {
			return nil, err
		}
	}
	st, err := studies.Open(ctx, url, studies.OpenOptions{MustExist: mustExist})
	if err != nil {
		return nil, asUsage(err)
	}
	noteStore(ctx, st)
	return st, nil
}

// openStoreReadOnly opens an existing study database for a command that only reads it
// (studies list and show, export, explain, report): nothing is created, migrated or written,
// and errors are the user's to fix (exit code 2). The database's path is noted once
// (noteStore).
func openStoreReadOnly(ctx context.Context, url string) (*studies.Store, error) {
	st, err := studies.Open(ctx, url, studies.OpenOptions{MustExist: true, ReadOnly: true})
	if err != nil {
		return nil, asUsage(err)
	}
	noteStore(ctx, st)
	return st, nil
}

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
		out = noteFdWriter{noteWriter: noteWriter{n: n}, fd: f} // still a terminal to isTerminal
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
func noteStore(ctx context.Context, st *studies.Store) {
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
	n.pending += "study database: " + quoteName(storagePathForDisplay(st.URL(), st.Dialect() == studies.SQLite)) + "\n"
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

// noteFdWriter is a noteWriter over a file, which keeps its descriptor (isTerminal).
type noteFdWriter struct {
	noteWriter
	fd interface{ Fd() uintptr }
}

// Fd returns the file's descriptor.
func (w noteFdWriter) Fd() uintptr { return w.fd.Fd() }

// nameDamaged makes an error that says a study database is damaged (studies.IsDamaged) name
// the database, when its message does not already: "study database PATH is damaged: ...".
func (n *storeNote) nameDamaged(err error) error {
	if n == nil || !studies.IsDamaged(err) {
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

// openExistingStore opens the existing study database at url: read-only (nothing created,
// migrated or written: openStoreReadOnly) or for writing.
func openExistingStore(ctx context.Context, url string, readOnly bool) (*studies.Store, error) {
	if readOnly {
		return openStoreReadOnly(ctx, url)
	}
	return openStore(ctx, url, true)
}

// openStudy opens the existing study database at url (openExistingStore) and loads study
// name's problem (loadProblem). The caller closes the store.
func openStudy(ctx context.Context, url, name string, readOnly bool) (*studies.Store, int, *studyProblem, error) {
	store, err := openExistingStore(ctx, url, readOnly)
	if err != nil {
		return nil, 0, nil, err
	}
	id, sp, err := loadProblem(store, name)
	if err != nil {
		store.Close()
		return nil, 0, nil, err
	}
	return store, id, sp, nil
}

// reopenObjective reopens a stored problem's workloads (reopenWorkloadsWith, with ro) and
// builds the problem's objective; sp.profiles then says how each profile was read.
func reopenObjective(sp *studyProblem, ro reopenOptions, threshold float64) (*objective.Problem, error) {
	lw, err := reopenWorkloadsWith(sp, ro, threshold)
	if err != nil {
		return nil, err
	}
	sp.profiles = lw.profiles
	return sp.newObjective(lw)
}

// withStore returns the RunE of a command that works on the configured study database
// (studies list, show, delete): it opens the existing database, read-only unless write, passes
// it to run and closes it.
func (ro *rootOptions) withStore(write bool, run func(cmd *cobra.Command, args []string, store *studies.Store) error) func(*cobra.Command, []string) error {
	return ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
		store, err := openExistingStore(cmd.Context(), cfg.Storage, !write)
		if err != nil {
			return err
		}
		defer store.Close()
		return run(cmd, args, store)
	})
}
