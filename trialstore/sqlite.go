package trialstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
)

// sqliteDSN returns the glebarez/go-sqlite DSN for path. The driver runs each _pragma on every
// new connection; _txlock=immediate makes database/sql transactions BEGIN IMMEDIATE, so that a
// transaction that will write takes the write lock at its start (waiting up to busy_timeout)
// instead of failing with SQLITE_BUSY when it upgrades from reading.
//
// The path is passed without the "file:" prefix, so SQLite takes it literally (no URI
// parsing); the driver splits the DSN at its first '?', so the path must not contain one.
//
// A read-only DSN sets query_only and leaves the journal mode alone. An immutable one opens
// the file as a URI with mode=ro and immutable=1 (sqliteImmutable).
func sqliteDSN(path string, busy time.Duration, mode sqliteMode) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	if mode == sqliteImmutable {
		// A URI: SQLite reads mode and immutable and ignores the driver's _pragma keys. No
		// _txlock: BEGIN IMMEDIATE would ask a read-only file for the write lock.
		q.Add("_pragma", "query_only(1)")
		q.Set("mode", "ro")
		q.Set("immutable", "1")
		return "file:" + uriPath(path) + "?" + q.Encode()
	}
	if mode == sqliteReadOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
	}
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	return path + "?" + q.Encode()
}

// sqliteMode is how a SQLite file is opened.
type sqliteMode int

const (
	// sqliteWrite: read and write, WAL.
	sqliteWrite sqliteMode = iota
	// sqliteReadOnly: a read-write connection with query_only set, the journal mode left as
	// it is; on close it checkpoints and removes the -wal and -shm files it needed.
	sqliteReadOnly
	// sqliteImmutable: mode=ro and immutable=1: SQLite reads the database file alone, with no
	// lock, -wal or -shm file (for a file whose folder, or itself, the user cannot write:
	// SQLite cannot create them there, and a WAL database then fails with "attempt to write a
	// readonly database"). It assumes the file does not change while it is read.
	sqliteImmutable
)

// readOnlyMode returns how a read-only command opens path: immutable when the user cannot
// write the file or its folder and no -wal file holds commits not yet in the database file
// (SQLite would need the -shm to read them, and is then left to open it read-only itself);
// else query_only.
//
// A database without a -wal file is read immutable too, writable or not: no process has it
// open in WAL mode, every commit is in the database file, and a query_only connection would
// create the -wal and -shm files beside it (issue 35: on a full disk that fails with "disk
// I/O error" and leaves them behind). In WAL mode a writer that starts meanwhile changes the
// database file only when it checkpoints; the reader sees the file as it stood.
func readOnlyMode(path string) sqliteMode {
	_, walErr := os.Stat(path + "-wal")
	if errors.Is(walErr, fs.ErrNotExist) {
		return sqliteImmutable
	}
	if canWrite(path, false) && canWrite(filepath.Dir(path), true) {
		return sqliteReadOnly
	}
	if st, err := os.Stat(path + "-wal"); err == nil && st.Size() > 0 {
		return sqliteReadOnly
	}
	return sqliteImmutable
}

// uriPath returns path, made absolute, for a file: URI: '%', '?' and '#' percent-encoded (SQLite
// decodes them), so that no character of a file name is read as URI syntax.
func uriPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(path))
}

func openSQLite(ctx context.Context, path string, opts OpenOptions) (*Store, error) {
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("trialstore: SQLite path %q must not contain '?'", path)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("trialstore: database %q is a directory, not a SQLite file", path)
	} else if err == nil && !st.Mode().IsRegular() {
		// A FIFO would block the first read for as long as no one writes into it.
		return nil, fmt.Errorf("trialstore: database %q is not a regular file (a named pipe, device or socket), not a SQLite file", path)
	} else if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("trialstore: database %q: %w", path, err)
		}
		if opts.MustExist {
			return nil, &pathError{msg: fmt.Sprintf("trialstore: database %q does not exist", path), path: path}
		}
		dir := filepath.Dir(path)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("trialstore: cannot create database %q: directory %q does not exist", path, dir)
		}
	}
	var cleanup func()
	mode := sqliteWrite
	if opts.ReadOnly {
		mode = readOnlyMode(path)
		if mode == sqliteReadOnly {
			cleanup = readOnlyCleanup(path)
		}
	} else if err := refuseForeign(ctx, path, opts.BusyTimeout); err != nil {
		return nil, err
	}
	db, err := openSQLiteDB(ctx, path, opts.BusyTimeout, mode)
	if err != nil {
		return nil, corrupt(fmt.Errorf("trialstore: open %q: %w", path, inWords(err)))
	}
	s := &Store{db: db, url: path, dialect: SQLite, cleanup: cleanup, sqliteMode: mode}
	if opts.ReadOnly {
		// Reading the schema table touches the file: a damaged one fails here.
		err := db.WithContext(ctx).Exec("SELECT count(*) FROM sqlite_master").Error
		ok := false
		if err == nil {
			ok, err = s.schemaComplete(db.WithContext(ctx))
		}
		if err == nil && !ok {
			err = &sentinelError{msg: fmt.Sprintf("trialstore: %q is not a gctune study database (no study tables)", path), is: ErrNotStudies}
		} else if err != nil {
			err = corrupt(fmt.Errorf("trialstore: open %q: %w", path, inWords(err)))
		}
		if err != nil {
			_ = s.Close()
			return nil, err
		}
		return s, nil
	}
	if err := s.migrateSQLite(ctx); err != nil {
		_ = s.Close()
		return nil, corrupt(err)
	}
	return s, nil
}

// refuseForeign returns an error matching ErrNotStudies when the SQLite file at path exists
// and has tables of its own but not goptuna's: another program's database, which a writing
// command must not give gctune's tables (nor switch to WAL). It reads the file through a
// read-only connection that leaves the journal mode alone, so a refused file is left
// byte for byte as it was. A missing or empty file, or one with goptuna's tables (perhaps
// without gctune's index, which migration adds), passes.
func refuseForeign(ctx context.Context, path string, busy time.Duration) error {
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		return nil
	}
	db, err := openSQLiteDB(ctx, path, busy, sqliteReadOnly)
	if err != nil {
		return corrupt(fmt.Errorf("trialstore: open %q: %w", path, err))
	}
	defer func() {
		if sqlDB, err := db.DB(); err == nil {
			_ = sqlDB.Close()
		}
	}()
	var names []string
	err = db.WithContext(ctx).Raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").Scan(&names).Error
	if err != nil {
		return corrupt(fmt.Errorf("trialstore: open %q: %w", path, err))
	}
	if len(names) == 0 {
		return nil
	}
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	for _, t := range tableNames() {
		if !have[t] {
			return &sentinelError{msg: fmt.Sprintf("trialstore: %q is not a gctune study database (%s of another program, no study tables): give gctune a file of its own", path, plural(len(names), "table")), is: ErrNotStudies}
		}
	}
	return nil
}

// readOnlyCleanup returns what a read-only Store does after closing a SQLite file it cannot
// write: SQLite still creates the -wal and -shm files beside a WAL database it reads, and a
// read-only connection, which cannot checkpoint, leaves them behind (owned by the reader, so
// that they can even stop the file's owner from writing). When the file is not writable and
// neither file existed before, the cleanup removes them if the -wal is empty (nothing written
// through it: a reader writes nothing). It returns nil when there is nothing to watch.
func readOnlyCleanup(path string) func() {
	if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
		_ = f.Close()
		return nil // writable: the last connection's close checkpoints and removes them
	}
	wal, shm := path+"-wal", path+"-shm"
	if _, err := os.Lstat(wal); err == nil {
		return nil
	}
	if _, err := os.Lstat(shm); err == nil {
		return nil
	}
	return func() {
		if st, err := os.Lstat(wal); err == nil && st.Mode().IsRegular() && st.Size() == 0 {
			_ = os.Remove(wal)
			_ = os.Remove(shm)
		}
	}
}

// openSQLiteDB opens the database, retrying while it is busy. Opening runs the DSN's pragmas,
// and switching a new file to WAL (journal_mode) needs an exclusive lock that SQLite may refuse
// with SQLITE_BUSY at once, without waiting for busy_timeout, when another process is opening
// the same new file (seen with two concurrent `study create`). So a busy open is tried again,
// every 25 ms up to 200 ms apart, for as long as the busy timeout (at least one second).
func openSQLiteDB(ctx context.Context, path string, busy time.Duration, mode sqliteMode) (*gorm.DB, error) {
	deadline := time.Now().Add(max(busy, time.Second))
	wait := 25 * time.Millisecond
	for {
		db, err := gorm.Open(sqlite.Open(sqliteDSN(path, busy, mode)), gormConfig())
		if err == nil || !IsTransient(err) || time.Now().Add(wait).After(deadline) {
			return db, err
		}
		select {
		case <-ctx.Done():
			return nil, errors.Join(err, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}
