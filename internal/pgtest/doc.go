// Package pgtest starts a private, throw-away PostgreSQL server for a test.
//
// Start finds the PostgreSQL server binaries (initdb, pg_ctl, createdb, psql) on PATH or under
// /usr/lib/postgresql/*/bin (the newest version wins), initialises a cluster in a fresh
// temporary directory with trust authentication, starts it listening on 127.0.0.1 on a free
// port and on a unix socket in the same directory, creates a database named "gctune" and
// returns its URL:
//
//	postgres://postgres@127.0.0.1:PORT/gctune?sslmode=disable
//
// The server is tuned to start fast and to be thrown away: fsync and full_page_writes are off
// and shared_buffers is small. synchronous_commit stays on, so that a restart with
// "pg_ctl -m immediate" in a fault test loses no acknowledged commit. A test's Cleanup stops it with
// "pg_ctl stop -m immediate" and removes the directory.
//
// PostgreSQL refuses to run as root, so when the test runs as root the server's commands run
// as the "postgres" system user (which Debian's postgresql package creates) through runuser,
// and the directory is handed to that user.
//
// When PostgreSQL is not installed, Start skips the test, unless the environment variable CI
// is "true", where a missing server is a broken CI image and the test fails instead. On
// Debian 12: apt-get install -y postgresql (binaries under /usr/lib/postgresql/15/bin).
package pgtest
