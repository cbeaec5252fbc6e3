package trialstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

// migrationLockKey is the pg_advisory_lock key that serialises gctune's migrations on one
// PostgreSQL database ("gctune" in ASCII).
const migrationLockKey int64 = 0x67_63_74_75_6e_65

// indexName is the index gctune adds to goptuna's schema: goptuna reads trials by study and
// state (every GetAllTrials, the reaper) and has no index for it.
const indexName = "idx_gctune_trials_study_state"

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
