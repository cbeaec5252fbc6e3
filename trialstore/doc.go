// Package trialstore is gctune's goptuna storage: where the trials of a study live, and nothing
// of what a study means (package study) or of what verify measured (package verify).
//
// It opens a study database from a URL (Open: a SQLite file, or PostgreSQL for many workers),
// creates goptuna's schema once under a lock (migrate.go), and hands out goptuna's rdb storage
// behind a cache of finished trials (Store.Storage; NewCachedStorage, read through SQL of its
// own in trialsql.go). Around the trials it keeps what a fleet of workers needs: creating and
// loading a study by name (CreateStudy writes the caller's attributes with the study row in one
// transaction), listings and deletion (ListStudies, DeleteStudy), claims on waiting trials so
// that a retried call does not run a trial twice (claim.go), heartbeats and the reaping of the
// trials of dead workers (Beat, Reap), and retrying an operation that failed with a transient
// database error (Retry, NewRetryStorage).
//
// Where the study database is when the configuration names none is resolved here too
// (Resolve: ./gctune.db if there is one, else gctune.db in the XDG data folder, DataPath), so that
// every front end finds the same file.
//
// Records of gctune's own are study system attributes that their owners encode and write with
// ReplaceStudyAttrs (one transaction that also clears the old record's pieces) and read back
// through Store.RawStorage; an owner marks a record that does not decode with Damaged.
//
// Errors name the database by its URL with the password masked (RedactURL; RedactText for any
// text), and a damaged file or study matches ErrCorrupt or ErrDamagedStudy (IsDamaged).
package trialstore
