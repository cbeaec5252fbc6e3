package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/c-bata/goptuna"
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/suggest"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
)

// newStudy is a study just created by createNewStudy: its database (which the caller closes),
// the goptuna study, the problem stored with it and its objective.
type newStudy struct {
	store *trialstore.Store
	study *goptuna.Study
	sp    *study.Problem
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
// before it opens the database, then creates the study and queues its seeds (study.Create).
func createNewStudy(ctx context.Context, cfg Config, name string, refs []string, words newStudyWording) (*newStudy, error) {
	if err := trialstore.ValidateName(name); err != nil {
		return nil, cmdutil.Usagef(words.badName, strings.TrimPrefix(err.Error(), "trialstore: "))
	}
	sp, prob, err := newProblem(cfg, refs)
	if err != nil {
		return nil, err
	}
	store, err := openStore(ctx, cfg.Storage, false)
	if err != nil {
		return nil, err
	}
	st, err := study.Create(ctx, store, name, sp)
	if errors.Is(err, trialstore.ErrStudyExists) {
		err = cmdutil.Usagef(words.exists, name, store.URL(), export.ShellQuote(name))
	}
	if err != nil {
		store.Close()
		return nil, err
	}
	return &newStudy{store: store, study: st, sp: sp, prob: prob}, nil
}

// openStore opens the study database for writing (optimize, resume, study create, verify,
// calibrate --from-study, studies delete), mapping its errors to exit codes: a missing file on
// resume, a bad URL, another program's SQLite file, an unreachable server are the user's to
// fix (2). A new database in the user's data folder gets its folder. The database's path is
// noted once (noteStore).
func openStore(ctx context.Context, url string, mustExist bool) (*trialstore.Store, error) {
	if !mustExist {
		if err := makeDataFolder(url); err != nil {
			return nil, err
		}
	}
	st, err := trialstore.Open(ctx, url, trialstore.OpenOptions{MustExist: mustExist})
	if err != nil {
		return nil, cmdutil.AsUsage(cmdutil.StoreOpenError(url, err))
	}
	noteStore(ctx, st)
	return st, nil
}

// openStoreReadOnly opens an existing study database for a command that only reads it
// (studies list and show, export, explain, report): nothing is created, migrated or written,
// and errors are the user's to fix (exit code 2). The database's path is noted once
// (noteStore).
func openStoreReadOnly(ctx context.Context, url string) (*trialstore.Store, error) {
	st, err := trialstore.Open(ctx, url, trialstore.OpenOptions{MustExist: true, ReadOnly: true})
	if err != nil {
		return nil, cmdutil.AsUsage(cmdutil.StoreOpenError(url, err))
	}
	noteStore(ctx, st)
	return st, nil
}

// openExistingStore opens the existing study database at url: read-only (nothing created,
// migrated or written: openStoreReadOnly) or for writing.
func openExistingStore(ctx context.Context, url string, readOnly bool) (*trialstore.Store, error) {
	if readOnly {
		return openStoreReadOnly(ctx, url)
	}
	return openStore(ctx, url, true)
}

// openStudy opens the existing study database at url (openExistingStore) and loads study
// name's problem (study.Load). The caller closes the store.
func openStudy(ctx context.Context, url, name string, readOnly bool) (*trialstore.Store, int, *study.Problem, error) {
	store, err := openExistingStore(ctx, url, readOnly)
	if err != nil {
		return nil, 0, nil, err
	}
	id, sp, err := loadStudy(store, name)
	if err != nil {
		store.Close()
		return nil, 0, nil, err
	}
	return store, id, sp, nil
}

// loadStudy is study.Load, with the names a mistyped study name may have meant when store has
// no study of that name ("no study named "datafram-3.1gb" in gctune.db (did you mean
// "dataframe-3.1gb"?)").
func loadStudy(store *trialstore.Store, name string) (int, *study.Problem, error) {
	id, sp, err := study.Load(store, name)
	if errors.Is(err, trialstore.ErrNoStudy) {
		err = suggestStudy(store, name, err)
	}
	return id, sp, err
}

// suggestStudy adds to err, store's error for a study name it does not have, the study names
// nearest to name (suggest.Nearest); err unchanged when none is near or the names cannot be read.
func suggestStudy(store *trialstore.Store, name string, err error) error {
	sums, lerr := trialstore.ListStudies(store)
	if lerr != nil {
		return err
	}
	names := make([]string, len(sums))
	for i, s := range sums {
		names[i] = s.Name
	}
	hint := suggest.DidYouMean(suggest.Nearest(name, names), export.ShellQuote)
	if hint == "" {
		return err
	}
	return fmt.Errorf("%w%s", err, hint)
}

// withStore returns the RunE of a command that works on the configured study database
// (studies list, show, delete): it opens the existing database, read-only unless write, passes
// it to run and closes it.
func (ro *rootOptions) withStore(write bool, run func(cmd *cobra.Command, args []string, store *trialstore.Store) error) func(*cobra.Command, []string) error {
	return ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
		store, err := openExistingStore(cmd.Context(), cfg.Storage, !write)
		if err != nil {
			return err
		}
		defer store.Close()
		return run(cmd, args, store)
	})
}
