package session

import "github.com/gctune/gctune/trialstore"

// KeepConnections keeps enough idle database connections in store for a session running
// workers trials at once: one for each trial, one for each trial's heartbeats, and two for
// the reaper and the loop. database/sql keeps 2 by default: past that, each connection a
// burst of queries opens is closed again, and on PostgreSQL every new connection starts a new
// server process.
func KeepConnections(store *trialstore.Store, workers int) {
	if sqlDB, err := store.DB().DB(); err == nil {
		sqlDB.SetMaxIdleConns(2*workers + 2)
	}
}
