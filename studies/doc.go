// Package studies keeps gctune's searches in a database: goptuna's rdb.v2 storage on a SQLite
// file (the default) or on PostgreSQL (for many workers on many machines).
//
// # Opening storage
//
// Open takes a URL: a bare path or sqlite:// URL names a SQLite file, postgres:// or
// postgresql:// a PostgreSQL database. It creates goptuna's schema once, under a lock
// (BEGIN IMMEDIATE on SQLite, pg_advisory_lock on PostgreSQL), because workers that start
// together would otherwise race to create it. SQLite runs in WAL mode with a busy timeout and
// BEGIN IMMEDIATE transactions, through the pure-Go driver github.com/glebarez/sqlite: with
// those settings several processes, each with several goroutines, share one file without
// losing or duplicating trials. Errors and Store.URL never show a password (RedactURL).
//
// # Caching
//
// goptuna re-reads every trial of a study several times per trial, so a long study slows
// down. Store.Storage is a caching wrapper (NewCachedStorage) that keeps finished trials,
// which never change, and reads only unfinished and new ones.
//
// # Studies and their problem
//
// CreateStudy creates a study race-safely (of two workers creating the same name, one wins,
// the other gets ErrStudyExists) and stores, opaquely, the problem it solves (SaveProblem,
// LoadProblem: JSON in study system attributes) with the gctune version and creation time.
// LoadStudy loads one by name (ErrNoStudy when unknown). Both pass goptuna study options
// (sampler, relative sampler, pruner, logger) through, with goptuna's own logger, which
// prints debug lines in colour to stdout, silenced by default.
//
// # Dead workers
//
// goptuna leaves a trial whose worker died RUNNING forever. A worker beats for the trial it
// runs (Beat, once; StartHeartbeat, every interval from a goroutine of its own); Reap fails the
// RUNNING trials whose heartbeat is too old and enqueues their parameters again, exactly once
// even with several reapers. gctune's commands do both through package session, which keeps
// the time (its own clock) and calls Beat and Reap.
//
// # Queries
//
// ListStudies summarises the studies; DeleteStudy removes one; BestTrial picks the best
// finished, feasible, finite trial (never goptuna's GetBestValue, which answers 0 when there
// is none); ParetoFront returns the trials not dominated on value and memory footprint.
//
// The package runs no simulation: it stores what the search package proposes and the
// objective measures.
package studies
