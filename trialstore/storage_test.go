package trialstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseURL(t *testing.T) {
	for _, c := range []struct {
		in      string
		dialect Dialect
		target  string
	}{
		{"", SQLite, DefaultPath},
		{"x.db", SQLite, "x.db"},
		{"dir/x.db", SQLite, "dir/x.db"},
		{"/abs/x.db", SQLite, "/abs/x.db"},
		{"sqlite:///abs/path.db", SQLite, "/abs/path.db"},
		{"sqlite://rel.db", SQLite, "rel.db"},
		{"sqlite://dir/rel.db", SQLite, "dir/rel.db"},
		{"sqlite:rel.db", SQLite, "rel.db"},
		{"SQLITE:///abs.db", SQLite, "/abs.db"},
		{"postgres://u:p@h/db", Postgres, "postgres://u:p@h/db"},
		{"postgresql://h/db", Postgres, "postgresql://h/db"},
	} {
		d, target, err := parseURL(c.in)
		if err != nil || d != c.dialect || target != c.target {
			t.Errorf("parseURL(%q) = %q, %q, %v; want %q, %q", c.in, d, target, err, c.dialect, c.target)
		}
	}
	for _, bad := range []string{"sqlite://", "sqlite:", "mysql://u:secret@h/db"} {
		_, _, err := parseURL(bad)
		if err == nil {
			t.Errorf("parseURL(%q): no error", bad)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("parseURL(%q): error shows the password: %v", bad, err)
		}
	}
}

func TestOpenSQLiteMustExist(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.db")
	_, err := Open(context.Background(), path, OpenOptions{MustExist: true})
	want := fmt.Sprintf("trialstore: database %q does not exist", path)
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	if !errors.Is(err, ErrNoDatabase) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err does not match ErrNoDatabase and fs.ErrNotExist")
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open with MustExist created the file")
	}
	s := openT(t, "sqlite://"+path, OpenOptions{})
	if s.Dialect() != SQLite || s.URL() != path {
		t.Errorf("Dialect, URL = %q, %q", s.Dialect(), s.URL())
	}
	s2 := openT(t, path, OpenOptions{MustExist: true})
	var mode string
	if err := s2.DB().Raw("PRAGMA journal_mode").Scan(&mode).Error; err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var busy int
	if err := s2.DB().Raw("PRAGMA busy_timeout").Scan(&busy).Error; err != nil || busy != 10000 {
		t.Errorf("busy_timeout = %d, %v; want 10000", busy, err)
	}
	var fk int
	if err := s2.DB().Raw("PRAGMA foreign_keys").Scan(&fk).Error; err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v; want 1", fk, err)
	}

	_, err = Open(context.Background(), filepath.Join(dir, "no", "such", "x.db"), OpenOptions{})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing directory: err = %v", err)
	}
}

// TestOpenSQLiteMigratesOnce checks that a second Open changes nothing in the schema (with
// goptuna's pinned gorm, every migration rebuilt every SQLite table).
func TestOpenSQLiteMigratesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	schema := func(s *Store) string {
		var sqls []string
		if err := s.DB().Raw("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").Scan(&sqls).Error; err != nil {
			t.Fatal(err)
		}
		return strings.Join(sqls, "\n")
	}
	s1 := openT(t, path, OpenOptions{})
	before := schema(s1)
	if !strings.Contains(before, indexName) {
		t.Errorf("schema lacks %s:\n%s", indexName, before)
	}
	// Force a full migration on an existing schema: it must issue no DDL.
	if err := migrate(s1.DB()); err != nil {
		t.Fatal(err)
	}
	s2 := openT(t, path, OpenOptions{})
	if after := schema(s2); after != before {
		t.Errorf("schema changed:\n%s\n---\n%s", before, after)
	}
}

// TestOpenSQLiteConcurrentFirst opens a fresh file from many goroutines at once.
func TestOpenSQLiteConcurrentFirst(t *testing.T) {
	for round := 0; round < 3; round++ {
		path := filepath.Join(t.TempDir(), "x.db")
		concurrentOpen(t, path, 8)
	}
}

// concurrentOpen opens url from n goroutines at once, then creates and lists a study.
func concurrentOpen(t *testing.T, url string, n int) {
	t.Helper()
	errs := make([]error, n)
	stores := make([]*Store, n)
	atOnce(n, func(i int) {
		stores[i], errs[i] = Open(context.Background(), url, OpenOptions{})
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	if _, err := CreateStudy(context.Background(), stores[0], "s", NewStudy{}); err != nil {
		t.Fatal(err)
	}
	for i, s := range stores {
		list, err := ListStudies(s)
		if err != nil || len(list) != 1 {
			t.Fatalf("store %d: ListStudies = %v, %v", i, list, err)
		}
	}
}

func TestOpenPostgresUnreachable(t *testing.T) {
	port, err := openUnreachable(t, "postgres://gctune:hunter2secret@127.0.0.1:%d/gctune?sslmode=disable&connect_timeout=2")
	msg := err.Error()
	if strings.Contains(msg, "hunter2secret") {
		t.Errorf("error shows the password: %s", msg)
	}
	if !errors.Is(err, ErrUnreachable) {
		t.Errorf("error does not match ErrUnreachable: %s", msg)
	}
	wantPrefix := fmt.Sprintf("trialstore: cannot connect to postgres://gctune:xxxxx@127.0.0.1:%d/gctune", port)
	if !strings.HasPrefix(msg, wantPrefix) {
		t.Errorf("error = %s\nwant prefix %s", msg, wantPrefix)
	}
}

// TestReadOnlyOpenMode: a read-only Store opens a SQLite file the user can write (or whose
// folder they can) with query_only, and one in a folder they cannot write immutable (mode=ro,
// immutable=1): SQLite could not create the -wal and -shm files a WAL database needs there
// (issue 22). As root, which may write anything, the second half runs in a child process as
// user nobody (setpriv).
func TestReadOnlyOpenMode(t *testing.T) {
	if path := os.Getenv("GCTUNE_TEST_IMMUTABLE_DB"); path != "" {
		s, err := Open(context.Background(), path, OpenOptions{MustExist: true, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := ListStudies(s); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("immutable=%v\n", s.Immutable())
		return
	}
	dir, err := os.MkdirTemp("", "gctune-immutable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = os.Chmod(dir, 0o755)
		_ = os.RemoveAll(dir)
	})
	path := filepath.Join(dir, "s.db")
	w, err := Open(context.Background(), path, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// While a writer has it open (its -wal is there), a writable database is read through
	// SQLite's locks, so that the reader sees the writer's commits.
	if _, err := ListStudies(w); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatal("the writer's -wal: ", err)
	}
	r, err := Open(context.Background(), path, OpenOptions{MustExist: true, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Immutable() {
		t.Error("a writable database with a writer was opened immutable")
	}
	r.Close()
	w.Close()
	// Without a -wal file, every commit is in the file: read immutable, creating no -wal or
	// -shm (issue 35).
	r, err = Open(context.Background(), path, OpenOptions{MustExist: true, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Immutable() {
		t.Error("a database without a -wal file was not opened immutable")
	}
	r.Close()
	for _, side := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + side); err == nil {
			t.Errorf("a read-only open left %s", side)
		}
	}

	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		r, err := Open(context.Background(), path, OpenOptions{MustExist: true, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Immutable() {
			t.Error("a database in an unwritable folder was not opened immutable")
		}
		r.Close()
		return
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("root without setpriv: cannot open as another user")
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", os.Args[0], "-test.run", "^TestReadOnlyOpenMode$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GCTUNE_TEST_IMMUTABLE_DB="+path)
	out, err := cmd.CombinedOutput()
	if err != nil && strings.Contains(string(out), "ermission denied") && !strings.Contains(string(out), "immutable") {
		t.Skipf("user nobody cannot run the test binary: %s", out)
	}
	if err != nil || !strings.Contains(string(out), "immutable=true") {
		t.Errorf("as nobody, in a 0555 folder: %v\n%s", err, out)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Error("a -wal file was left")
	}
}
