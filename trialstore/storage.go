package trialstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/rdb.v2"
	"github.com/glebarez/sqlite"
	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// DefaultPath is the SQLite file Open uses when the URL is empty.
const DefaultPath = "gctune.db"

// Default timeouts of OpenOptions.
const (
	DefaultBusyTimeout    = 10 * time.Second
	DefaultConnectTimeout = 10 * time.Second
)

// migrationLockKey is the pg_advisory_lock key that serialises gctune's migrations on one
// PostgreSQL database ("gctune" in ASCII).
const migrationLockKey int64 = 0x67_63_74_75_6e_65

// indexName is the index gctune adds to goptuna's schema: goptuna reads trials by study and
// state (every GetAllTrials, the reaper) and has no index for it.
const indexName = "idx_gctune_trials_study_state"

// Dialect names the database behind a Store.
type Dialect string

// The dialects Open understands.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// Errors Open, CreateStudy and LoadStudy wrap; test with errors.Is.
var (
	// ErrNoDatabase: OpenOptions.MustExist was set and the SQLite file does not exist. Such
	// errors also match fs.ErrNotExist.
	ErrNoDatabase = errors.New("trialstore: database does not exist")
	// ErrUnreachable: the database server could not be reached or refused the connection.
	ErrUnreachable = errors.New("trialstore: database unreachable")
	// ErrStudyExists: CreateStudy was asked for a name that is taken.
	ErrStudyExists = errors.New("trialstore: study already exists")
	// ErrNoStudy: no study has the name asked for.
	ErrNoStudy = errors.New("trialstore: no such study")
	// ErrStudyRunning: DeleteStudy without force found RUNNING trials.
	ErrStudyRunning = errors.New("trialstore: study has running trials")
	// ErrNotStudies: the database lacks gctune's schema, and OpenOptions.ReadOnly was set or
	// the SQLite file has tables of another program.
	ErrNotStudies = errors.New("trialstore: not a gctune study database")
	// ErrCorrupt: the SQLite file is not a database, or a damaged one.
	ErrCorrupt = errors.New("trialstore: database file is damaged or not a database")
)

// OpenOptions tunes Open. The zero value is the usual choice.
type OpenOptions struct {
	// MustExist makes Open fail with ErrNoDatabase when a SQLite file does not exist, instead
	// of creating it (resume, export). It has no effect on PostgreSQL.
	MustExist bool
	// BusyTimeout is how long a SQLite connection waits for another writer before failing
	// with "database is locked". Zero means DefaultBusyTimeout.
	BusyTimeout time.Duration
	// ConnectTimeout bounds connecting to PostgreSQL (the first ping). Zero means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// ReadOnly opens for reading only (listings, export, report): a SQLite database is opened
	// with query_only, never migrated (a file without gctune's schema is refused with
	// ErrNotStudies instead of getting tables), and its journal mode is left as it is. When the
	// user cannot write the file or its folder (and no -wal file holds commits), it is opened
	// immutable instead (mode=ro, immutable=1: Store.Immutable), with no lock, -wal or -shm.
	ReadOnly bool
	// NoCache makes Store.Storage the plain goptuna rdb storage, without the caching wrapper
	// (NewCachedStorage). For measurements and for debugging the cache.
	NoCache bool
}

// Store is an open study database: goptuna's rdb.v2 storage on SQLite or PostgreSQL, migrated,
// with the caching wrapper in front. A Store is safe for concurrent use; Close it when done.
type Store struct {
	db      *gorm.DB
	raw     goptuna.Storage
	storage goptuna.Storage
	url     string // redacted
	dialect Dialect
	// cleanup runs after the connections close (readOnlyCleanup).
	cleanup func()
	// sqliteMode is how a SQLite file was opened.
	sqliteMode sqliteMode
}

// Immutable reports whether the Store reads a SQLite file as immutable (mode=ro, immutable=1):
// a read-only Store on a file whose folder, or itself, the user cannot write.
func (s *Store) Immutable() bool { return s.sqliteMode == sqliteImmutable }

// Storage returns the goptuna storage to hand to goptuna.StudyOptionStorage: the caching
// wrapper unless OpenOptions.NoCache was set.
func (s *Store) Storage() goptuna.Storage { return s.storage }

// RawStorage returns goptuna's rdb storage without the cache. Writes through it are not seen
// by this Store's cache until the trial they touch is read again from the database, which
// happens for every unfinished trial; do not change finished trials through it.
func (s *Store) RawStorage() goptuna.Storage { return s.raw }

// DB returns the gorm handle, for queries goptuna's Storage interface lacks.
func (s *Store) DB() *gorm.DB { return s.db }

// URL returns the URL the Store was opened with, its password redacted.
func (s *Store) URL() string { return s.url }

// Dialect returns the kind of database behind the Store.
func (s *Store) Dialect() Dialect { return s.dialect }

// Close closes the database connections.
func (s *Store) Close() error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return fmt.Errorf("trialstore: close: %w", err)
	}
	if err := sqlDB.Close(); err != nil {
		return fmt.Errorf("trialstore: close: %w", err)
	}
	if s.cleanup != nil {
		s.cleanup()
	}
	return nil
}

// Open opens (and on first use creates and migrates) the study database that rawURL names:
//
//	""                           the SQLite file DefaultPath in the working directory
//	path/to/file.db              a SQLite file (any string without a scheme)
//	sqlite:///abs/path.db        a SQLite file by absolute path
//	sqlite://rel/path.db         a SQLite file relative to the working directory
//	postgres://user@host/db      PostgreSQL (also postgresql://); libpq's PG* environment
//	                             variables such as PGPASSWORD fill in what the URL leaves out
//
// SQLite is opened with the pure-Go driver github.com/glebarez/sqlite (modernc.org's SQLite
// translated to Go: no cgo) in WAL mode with synchronous=NORMAL, foreign keys on, a busy
// timeout (OpenOptions.BusyTimeout) and BEGIN IMMEDIATE transactions, which is what several
// processes need to share one file without "database is locked" failures.
//
// goptuna's schema (rdb.RunAutoMigrate) is created once, under a lock, so that workers that
// start together do not race: a BEGIN IMMEDIATE transaction on SQLite, pg_advisory_lock on
// PostgreSQL. A database whose schema is complete is not migrated again.
//
// Errors name the URL with its password redacted (RedactURL).
func Open(ctx context.Context, rawURL string, opts OpenOptions) (*Store, error) {
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = DefaultBusyTimeout
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	dialect, target, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	var s *Store
	switch dialect {
	case SQLite:
		s, err = openSQLite(ctx, target, opts)
	default:
		s, err = openPostgres(ctx, rawURL, opts)
	}
	if err != nil {
		return nil, err
	}
	raw := &gormStorage{Storage: rdb.NewStorage(s.db), db: s.db}
	s.raw = raw
	s.storage = raw
	if !opts.NoCache {
		s.storage = NewCachedStorage(raw)
	}
	return s, nil
}

// parseURL returns the dialect and, for SQLite, the file path.
func parseURL(rawURL string) (Dialect, string, error) {
	lower := strings.ToLower(rawURL)
	switch {
	case rawURL == "":
		return SQLite, DefaultPath, nil
	case strings.HasPrefix(lower, "postgres://"), strings.HasPrefix(lower, "postgresql://"):
		return Postgres, rawURL, nil
	case isPostgresScheme(rawURL):
		// "postgres:/u:pw@h/db", "postgres:u:pw@h/db": a URL with its slashes missing, not a
		// SQLite file name.
		return "", "", fmt.Errorf("trialstore: bad PostgreSQL URL %s: want postgres://user@host/db (two slashes after the scheme)", RedactURL(rawURL))
	case strings.HasPrefix(lower, "sqlite://"):
		path := rawURL[len("sqlite://"):]
		if path == "" || path == "/" {
			return "", "", fmt.Errorf("trialstore: %q names no SQLite file", rawURL)
		}
		return SQLite, path, nil
	case strings.HasPrefix(lower, "sqlite:"):
		path := rawURL[len("sqlite:"):]
		if path == "" {
			return "", "", fmt.Errorf("trialstore: %q names no SQLite file", rawURL)
		}
		return SQLite, path, nil
	case strings.Contains(rawURL, "://"):
		return "", "", fmt.Errorf("trialstore: unsupported storage URL %q: want a SQLite file, sqlite:// or postgres://", RedactURL(rawURL))
	case libpqKeyword.MatchString(rawURL):
		// Not quoted: where a keyword's value ends is the driver's to decide, not ours.
		return "", "", errors.New("trialstore: the storage is a libpq keyword string (host=... dbname=...), not supported: give a postgres://user@host/db URL (password in PGPASSWORD)")
	}
	return SQLite, rawURL, nil
}

// gormConfig is the gorm configuration of every Store: quiet (gorm's default logger prints slow
// queries and "record not found" to stdout) and without gorm's implicit transaction around
// single-statement writes (each statement is atomic on its own).
func gormConfig() *gorm.Config {
	return &gorm.Config{
		Logger:                 logger.Discard,
		SkipDefaultTransaction: true,
		DisableAutomaticPing:   true,
	}
}

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

// SQLite's result codes for a file that is not a database or a damaged one.
const (
	sqliteCorrupt  = 11 // SQLITE_CORRUPT
	sqliteNotADB   = 26 // SQLITE_NOTADB
	sqliteCodeMask = 0xff
)

// corrupt makes err also match ErrCorrupt when SQLite says the file is damaged or not a
// database.
func corrupt(err error) error {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		if c := coded.Code() & sqliteCodeMask; c == sqliteCorrupt || c == sqliteNotADB {
			return &corruptError{err: err}
		}
	}
	return err
}

// sentinelError is an error with its own message that matches a sentinel.
type sentinelError struct {
	msg string
	is  error
}

func (e *sentinelError) Error() string { return e.msg }
func (e *sentinelError) Unwrap() error { return e.is }

type corruptError struct{ err error }

func (e *corruptError) Error() string   { return e.err.Error() }
func (e *corruptError) Unwrap() []error { return []error{ErrCorrupt, e.err} }

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

func openPostgres(ctx context.Context, rawURL string, opts OpenOptions) (*Store, error) {
	redacted := RedactURL(rawURL)
	if err := checkPostgresURL(rawURL); err != nil {
		return nil, err
	}
	db, err := gorm.Open(postgres.New(postgres.Config{DSN: rawURL}), gormConfig())
	if err != nil {
		return nil, fmt.Errorf("trialstore: bad PostgreSQL URL %s: %s", redacted, driverParseReason(rawURL, err))
	}
	s := &Store{db: db, url: redacted, dialect: Postgres}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("trialstore: %s: %w", redacted, err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, opts.ConnectTimeout)
	defer cancel()
	if err := sqlDB.PingContext(pingCtx); err != nil {
		_ = sqlDB.Close()
		return nil, &unreachableError{url: redacted, err: err}
	}
	if opts.ReadOnly {
		if ok, err := s.schemaComplete(db.WithContext(ctx)); err != nil || !ok {
			_ = s.Close()
			if err == nil {
				return nil, &sentinelError{msg: fmt.Sprintf("trialstore: %s is not a gctune study database (no study tables)", redacted), is: ErrNotStudies}
			}
			return nil, fmt.Errorf("trialstore: %s: %w", redacted, err)
		}
		return s, nil
	}
	if err := s.migratePostgres(ctx, sqlDB); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// tableNames are goptuna rdb.v2's tables.
func tableNames() []string {
	return []string{"studies", "study_user_attributes", "study_system_attributes", "trials",
		"trial_user_attributes", "trial_system_attributes", "trial_params", "trial_values"}
}

// schemaComplete reports whether every goptuna table and gctune's index exist.
func (s *Store) schemaComplete(db *gorm.DB) (bool, error) {
	m := db.Migrator()
	for _, t := range tableNames() {
		if !m.HasTable(t) {
			return false, nil
		}
	}
	if !m.HasIndex("trials", indexName) {
		return false, nil
	}
	return true, db.Error
}

// migrate creates goptuna's schema and gctune's index.
func migrate(db *gorm.DB) error {
	if err := rdb.RunAutoMigrate(db); err != nil {
		return err
	}
	return db.Exec("CREATE INDEX IF NOT EXISTS " + indexName + " ON trials (study_id, state)").Error
}

func (s *Store) migrateSQLite(ctx context.Context) error {
	db := s.db.WithContext(ctx)
	if ok, err := s.schemaComplete(db); err == nil && ok {
		return nil
	}
	// BEGIN IMMEDIATE: the first process to get here creates the schema, the others wait for
	// the write lock (busy_timeout) and then find it complete.
	err := db.Transaction(func(tx *gorm.DB) error {
		if ok, err := s.schemaComplete(tx); err != nil || ok {
			return err
		}
		return migrate(tx)
	})
	if err != nil {
		return fmt.Errorf("trialstore: migrate %q: %w", s.url, err)
	}
	return nil
}

func (s *Store) migratePostgres(ctx context.Context, sqlDB *sql.DB) error {
	db := s.db.WithContext(ctx)
	if ok, err := s.schemaComplete(db); err == nil && ok {
		return nil
	}
	// A session-level advisory lock on a dedicated connection: concurrent first-time
	// migrations of an empty database otherwise fail on duplicate types and relations.
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return &unreachableError{url: s.url, err: err}
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrationLockKey); err != nil {
		return fmt.Errorf("trialstore: migrate %s: lock: %w", s.url, err)
	}
	defer func() {
		// A fresh context: the unlock must run even when ctx is done. Closing the
		// connection would release the lock too.
		_, _ = conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", migrationLockKey)
	}()
	if ok, err := s.schemaComplete(db); err != nil || ok {
		if err != nil {
			return fmt.Errorf("trialstore: migrate %s: %w", s.url, err)
		}
		return nil
	}
	if err := migrate(db); err != nil {
		return fmt.Errorf("trialstore: migrate %s: %w", s.url, err)
	}
	return nil
}

// pathError is the error of Open with MustExist on a missing file.
type pathError struct {
	msg  string
	path string
}

func (e *pathError) Error() string   { return e.msg }
func (e *pathError) Unwrap() []error { return []error{ErrNoDatabase, fs.ErrNotExist} }

// unreachableError is Open's error for a database server it cannot reach.
type unreachableError struct {
	url string
	err error
}

func (e *unreachableError) Error() string {
	return fmt.Sprintf("trialstore: cannot connect to %s: %v", e.url, e.err)
}
func (e *unreachableError) Unwrap() []error { return []error{ErrUnreachable, e.err} }

// redactedPassword replaces passwords in RedactURL's output.
const redactedPassword = "xxxxx"

// keywordPassword matches password=... (and sslpassword=...) in a libpq keyword/value string,
// quoted or not.
var keywordPassword = regexp.MustCompile(`(?i)((?:^|\s)(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)

// urlScheme matches a URL's scheme and its colon ("postgres:", "sqlite:").
var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// isPostgresScheme reports whether s starts with postgres: or postgresql: (any case), with or
// without the slashes.
func isPostgresScheme(s string) bool {
	lower := strings.ToLower(s)
	return strings.HasPrefix(lower, "postgres:") || strings.HasPrefix(lower, "postgresql:")
}

// passwordSpan returns where the password of a URL's user info lies in rawURL, found by
// position alone, without parsing (a password that is not percent-encoded makes the URL
// unparseable, and then a parser's error would quote it). The user info runs from after
// "scheme:" and its slashes (none, one or two: "postgres:/u:pw@h" is masked too) to the last
// '@', the password from its first ':'. A password holding '/', '?', '#' or '@' is thus masked
// whole; an '@' later in the URL (in a query) makes the mask longer, never shorter.
//
// A PostgreSQL URL without '@' ("postgres://u:pw", "postgres:u:pw") has no user info, but
// what follows the host's ':' is a password when it is not a port: then everything from that
// ':' to the end of the URL is the span.
func passwordSpan(rawURL string) (start, end int, ok bool) {
	scheme := urlScheme.FindString(rawURL)
	if scheme == "" {
		return 0, 0, false
	}
	rest := len(scheme)
	for rest < len(rawURL) && rawURL[rest] == '/' {
		rest++
	}
	if at := strings.LastIndex(rawURL[rest:], "@"); at >= 0 {
		colon := strings.Index(rawURL[rest:rest+at], ":")
		if colon < 0 {
			return 0, 0, false
		}
		return rest + colon + 1, rest + at, true
	}
	if !isPostgresScheme(rawURL) {
		return 0, 0, false
	}
	authority := rawURL[rest:]
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	hostEnd := 0
	if strings.HasPrefix(authority, "[") { // [::1]:5432
		if i := strings.Index(authority, "]"); i >= 0 {
			hostEnd = i + 1
		}
	}
	colon := strings.Index(authority[hostEnd:], ":")
	if colon < 0 {
		return 0, 0, false
	}
	port := authority[hostEnd+colon+1:]
	if strings.Trim(port, "0123456789") == "" {
		return 0, 0, false
	}
	return rest + hostEnd + colon + 1, len(rawURL), true
}

// querySecretKey reports whether a URL query key (as written, percent-encoded or not) may
// name a password: one that decodes to a key holding "pass" (password, sslpassword, and
// "pass%77ord", which the driver decodes to password), or one that does not decode.
func querySecretKey(key string) bool {
	decoded, err := url.QueryUnescape(key)
	return err != nil || strings.Contains(strings.ToLower(decoded), "pass")
}

// redactQuery masks the values of rawURL's query parameters that may hold a password
// (querySecretKey). A value runs from its '=' to the next '&' or the end of the URL, so a
// value with a space, '#' or '?' is masked whole. The query starts at the first '?' after
// from.
func redactQuery(rawURL string, from int) string {
	q := strings.Index(rawURL[from:], "?")
	if q < 0 {
		return rawURL
	}
	q += from + 1
	params := strings.Split(rawURL[q:], "&")
	for i, p := range params {
		if k, _, ok := strings.Cut(p, "="); ok && querySecretKey(k) {
			params[i] = k + "=" + redactedPassword
		}
	}
	return rawURL[:q] + strings.Join(params, "&")
}

// RedactURL returns rawURL with any password replaced by "xxxxx", found by position: the
// user-info password of a URL (passwordSpan, also for "postgres:/u:pw@h" and "postgres://u:pw"),
// the value of a query parameter whose key names a password (password, sslpassword, a key
// that percent-decodes to one, or a key that does not decode), or password=... in a libpq
// keyword/value string. Other strings, such as SQLite paths, come back unchanged. Use it
// wherever a storage URL is printed, logged or stored.
//
// Leading white space is kept as it is and the URL after it masked (" postgres://u:pw@h" is
// masked as "postgres://u:pw@h" is), and so is anything before a "scheme://" (urlStart); any
// URL user info elsewhere is masked by RedactText.
func RedactURL(rawURL string) string {
	if at := urlStart(rawURL); at >= 0 {
		lead, trimmed := rawURL[:at], rawURL[at:]
		out, from := trimmed, 0
		if start, end, ok := passwordSpan(trimmed); ok {
			out = trimmed[:start] + redactedPassword + trimmed[end:]
			from = start + len(redactedPassword)
		}
		return lead + redactQuery(out, from)
	}
	return RedactText(keywordPassword.ReplaceAllString(rawURL, "${1}"+redactedPassword))
}

// checkPostgresURL refuses a PostgreSQL URL that does not parse, or that parses to another
// user info than its text says (an unencoded '#' or '/' in the password), with a message that
// quotes only the redacted URL: the parser's own error would quote the password.
func checkPostgresURL(rawURL string) error {
	redacted := RedactURL(rawURL)
	hint := "percent-encode special characters in the password (%20 space, %2F /, %3F ?, %23 #, %25 %, %40 @), " +
		"or leave the password out of the URL and set PGPASSWORD"
	u, err := url.Parse(rawURL)
	if err != nil {
		return fmt.Errorf("trialstore: bad PostgreSQL URL %s: not a valid URL; %s", redacted, hint)
	}
	if strings.Contains(rawURL, "#") {
		return fmt.Errorf("trialstore: bad PostgreSQL URL %s: '#' has no meaning in it; %s", redacted, hint)
	}
	if start, end, ok := passwordSpan(rawURL); ok {
		want, err := url.PathUnescape(rawURL[start:end])
		got, has := u.User.Password()
		if err != nil || !has || got != want {
			return fmt.Errorf("trialstore: bad PostgreSQL URL %s: the user info is ambiguous; %s", redacted, hint)
		}
	}
	return nil
}

// driverParseReason returns why the driver could not parse rawURL, without the URL: pgconn's
// ParseConfigError quotes the connection string, masking only a user-info password (not a
// query's). When even that reason holds a password of rawURL, it says only that the driver
// cannot use the URL.
func driverParseReason(rawURL string, err error) string {
	reason := err.Error()
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		bare := *pe
		bare.ConnString = ""
		reason = strings.TrimPrefix(bare.Error(), "cannot parse ``: ")
	}
	for _, secret := range urlSecrets(rawURL) {
		if strings.Contains(reason, secret) {
			return "the PostgreSQL driver cannot use it"
		}
	}
	return reason
}

// urlSecrets returns the passwords rawURL holds as written and percent-decoded: what
// RedactURL masks.
func urlSecrets(rawURL string) []string {
	var out []string
	add := func(s string) {
		if s == "" {
			return
		}
		out = append(out, s)
		if d, err := url.QueryUnescape(s); err == nil && d != s && d != "" {
			out = append(out, d)
		}
	}
	from := 0
	if start, end, ok := passwordSpan(rawURL); ok {
		add(rawURL[start:end])
		from = end
	}
	if q := strings.Index(rawURL[from:], "?"); q >= 0 {
		for _, p := range strings.Split(rawURL[from+q+1:], "&") {
			if k, v, ok := strings.Cut(p, "="); ok && querySecretKey(k) {
				add(v)
			}
		}
	}
	return out
}

// plural is "1 table", "2 tables".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// libpqKeyword matches the start of a libpq keyword/value connection string ("host=db
// user=u password=..."), which pgx accepts but gctune does not: Open refuses it rather than
// taking it for a SQLite file name.
var libpqKeyword = regexp.MustCompile(`(?i)^\s*(host|hostaddr|port|dbname|user|password|passfile|sslmode|sslcert|sslkey|sslrootcert|connect_timeout|application_name|options|service|target_session_attrs)\s*=`)
