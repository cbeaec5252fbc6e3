package trialstore

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

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

// libpqKeyword matches the start of a libpq keyword/value connection string ("host=db
// user=u password=..."), which pgx accepts but gctune does not: Open refuses it rather than
// taking it for a SQLite file name.
var libpqKeyword = regexp.MustCompile(`(?i)^\s*(host|hostaddr|port|dbname|user|password|passfile|sslmode|sslcert|sslkey|sslrootcert|connect_timeout|application_name|options|service|target_session_attrs)\s*=`)
