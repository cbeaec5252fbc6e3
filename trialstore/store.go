package trialstore

import (
	"fmt"
	"time"

	"github.com/c-bata/goptuna"
	"gorm.io/gorm"
)

// DefaultPath is the SQLite file Open uses when the URL is empty.
const DefaultPath = "gctune.db"

// Default timeouts of OpenOptions.
const (
	DefaultBusyTimeout    = 10 * time.Second
	DefaultConnectTimeout = 10 * time.Second
)

// Dialect names the database behind a Store.
type Dialect string

// The dialects Open understands.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
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
